// Small imports as deltas (memory.engine.ts): on two API instances of one store file (two store
// connections, as two processes have), a one-school import through one is searchable on the other
// within a second, without the catalog read again; a delta answers as a full build of the same
// catalog; past foldAt changed schools a full build folds them in, in the background; past
// deltaLimit, or from a store that cannot tell its changes, the catalog is read whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import type { Store } from '../../src/domain/store.port.ts';
import { MemorySearchEngine, type MemoryEngineOptions } from '../../src/search/memory/memory.engine.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { searchableAfter } from '../support/search.ts';

const WORDS = ['Lincoln', 'Washington', 'Jefferson', 'Roosevelt', 'Oak', 'Maple', 'River', 'Hill'];
const KINDS = ['Elementary School', 'High School', 'Middle School', 'Academy'];

function school(i: number, more: Partial<CatalogSchool> = {}): CatalogSchool {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `${WORDS[i % WORDS.length]} ${WORDS[(i >> 3) % WORDS.length]} ${KINDS[i % KINDS.length]}`,
    city: `Town ${i % 97}`,
    state: ['MA', 'NY', 'CA', 'ON'][i % 4]!,
    imageUrl: null,
    aliases: [],
    prominence: i % 50 === 0 ? 40 : 0,
    ...more,
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openStore(path: string): Promise<Store> {
  const store = await SqliteStore.open({ path });
  cleanups.push(() => store.close());
  return store;
}

async function storeFile(schools: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'school-search-delta-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'store.db');
  const store = await SqliteStore.open({ path });
  await store.schools.upsertMany(Array.from({ length: schools }, (_, i) => school(i)));
  await store.close();
  return path;
}

type RefreshEvent = Parameters<NonNullable<MemoryEngineOptions['onRefresh']>>[0];

async function engineOn(store: Store, options: MemoryEngineOptions = {}) {
  const events: RefreshEvent[] = [];
  const readCatalog = vi.spyOn(store.schools, 'readCatalog');
  const engine = new MemorySearchEngine(store.schools, { ...options, onRefresh: (e) => events.push(e) });
  cleanups.push(() => engine.close());
  await engine.start();
  return { engine, events, readCatalog };
}

const page = async (engine: MemorySearchEngine, query: string, more: { stateCode?: string; offset?: number } = {}) => {
  const { total, hits } = await engine.search({
    plan: planQuery(query),
    offset: more.offset ?? 0,
    limit: 25,
    ...(more.stateCode ? { stateCode: more.stateCode } : {}),
  });
  return { total, hits: hits.map((h) => [h.school.id, h.school.name, h.score]) };
};

const QUERIES = ['lincoln', 'lincoln high', 'oak maple', 'washingtn elem', 'academy', 'river hill school', 'zephyr'];

/** Every query's answers on `engine` equal those of an engine that built the whole catalog of `store` afresh. */
async function expectAsFullBuild(engine: MemorySearchEngine, store: Store): Promise<void> {
  const fresh = new MemorySearchEngine(store.schools, { refreshMs: 0 });
  await fresh.start();
  try {
    expect(engine.size).toBe(fresh.size);
    for (const query of QUERIES)
      for (const more of [{}, { stateCode: 'NY' }, { offset: 20 }])
        expect({ query, more, ...(await page(engine, query, more)) }).toStrictEqual({
          query,
          more,
          ...(await page(fresh, query, more)),
        });
  } finally {
    fresh.close();
  }
}

describe('MemorySearchEngine with deltas', () => {
  test('when one instance imports one school, then a second instance of the store finds it within 1 s, from a delta, the catalog not read again', async () => {
    const path = await storeFile(3_000);
    const first = await openStore(path);
    const second = await openStore(path);
    const other = await engineOn(second);
    expect(other.readCatalog).toHaveBeenCalledTimes(1);
    expect((await page(other.engine, 'zephyrine')).total).toBe(0);

    await first.schools.upsertMany([school(5_000, { name: 'Zephyrine Okafor Academy' })]);
    const { ms, found } = await searchableAfter(other.engine, 'zephyrine');
    console.log(`a one-school import on one instance was searchable on the other after ${Math.round(ms)} ms`);
    expect(found).toBe(1);
    expect(ms).toBeLessThan(1_000);
    expect(other.readCatalog).toHaveBeenCalledTimes(1);
    expect(other.events.at(-1)).toMatchObject({ ok: true, changes: 1, schools: 3_001 });
    await expectAsFullBuild(other.engine, second);
  }, 30_000);

  test('when an import changes stored schools, then the old names are gone, the new ones found, and every answer is a full build’s', async () => {
    const path = await storeFile(2_000);
    const store = await openStore(path);
    const { engine, events, readCatalog } = await engineOn(store, { refreshMs: 0 });
    expect((await page(engine, 'lincoln lincoln elementary')).total).toBeGreaterThan(0);
    await store.schools.upsertMany([
      school(0, { name: 'Quillfeather Prep', state: 'NY', prominence: 90 }),
      school(8, { name: 'Lincoln Quillfeather Academy' }),
      school(64, { city: 'Elsewhere' }),
      school(9_001, { name: 'Lincoln Elementary School' }),
    ]);
    expect(await engine.refresh()).toBe(true);
    expect(events.at(-1)).toMatchObject({ ok: true, changes: 4 });
    expect(readCatalog).toHaveBeenCalledTimes(1);
    expect((await page(engine, 'quillfeather')).hits.map((h) => h[1])).toEqual([
      'Quillfeather Prep',
      'Lincoln Quillfeather Academy',
    ]);
    await expectAsFullBuild(engine, store);

    // A second import: the delta holds every change since the full build, the first import's too.
    await store.schools.upsertMany([school(8, { name: 'Maple Maple Academy' })]);
    expect(await engine.refresh()).toBe(true);
    expect(events.at(-1)).toMatchObject({ ok: true, changes: 4 });
    expect((await page(engine, 'quillfeather')).hits.map((h) => h[1])).toEqual(['Quillfeather Prep']);
    await expectAsFullBuild(engine, store);
  }, 30_000);

  test('when the delta reaches foldAt schools, then a full build folds it in, in the background, and answers the same', async () => {
    const path = await storeFile(1_000);
    const store = await openStore(path);
    const { engine, events, readCatalog } = await engineOn(store, { refreshMs: 0, foldAt: 5 });
    await store.schools.upsertMany(
      Array.from({ length: 6 }, (_, i) => school(2_000 + i, { name: `Foldwell ${i} Academy` })),
    );
    expect(await engine.refresh()).toBe(true);
    expect(events.at(-1)).toMatchObject({ ok: true, changes: 6 });
    await vi.waitFor(() => expect(events.at(-1)).toMatchObject({ ok: true, folded: true }), { timeout: 10_000 });
    expect(readCatalog).toHaveBeenCalledTimes(2);
    expect((await page(engine, 'foldwell')).total).toBe(6);
    await expectAsFullBuild(engine, store);
  }, 30_000);

  test('when an import changes more than deltaLimit schools, then the catalog is read whole', async () => {
    const path = await storeFile(500);
    const store = await openStore(path);
    const { engine, events, readCatalog } = await engineOn(store, { refreshMs: 0, deltaLimit: 10 });
    await store.schools.upsertMany(Array.from({ length: 11 }, (_, i) => school(i, { name: `Renamed ${i} School` })));
    expect(await engine.refresh()).toBe(true);
    expect(readCatalog).toHaveBeenCalledTimes(2);
    expect(events.at(-1)).not.toHaveProperty('changes');
    await expectAsFullBuild(engine, store);
  }, 30_000);

  test('when the store cannot tell its changes, then every import is a full rebuild, as before', async () => {
    const path = await storeFile(300);
    const store = await openStore(path);
    const { catalogChanges: _, ...withoutChanges } = Object.assign(Object.create(null), {
      catalogVersion: () => store.schools.catalogVersion(),
      readCatalog: () => store.schools.readCatalog(),
      catalogChanges: undefined,
    });
    const engine = new MemorySearchEngine(withoutChanges, { refreshMs: 0 });
    cleanups.push(() => engine.close());
    await engine.start();
    await store.schools.upsertMany([school(7_000, { name: 'Wholeread Academy' })]);
    expect(await engine.refresh()).toBe(true);
    expect((await page(engine, 'wholeread')).total).toBe(1);
  }, 30_000);
});
