// The persisted index as the composition root wires it (src/composition/index-files.ts): the
// embedded store's beside its file, keyed by the file's identity, so that the index file of
// another store (moved or copied in beside this one) is never read; none for a store in memory.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterEach, expect, test, vi } from 'vitest';
import { composeEngine } from '../../src/composition/engine.ts';
import { embeddedIndexPath } from '../../src/composition/index-files.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { NO_METRICS } from '../../src/metrics/metrics.port.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { catalogOf, placedSchoolArb } from '../support/search-arbitraries.ts';

const CATALOG = catalogOf(fc.sample(placedSchoolArb, { numRuns: 200, seed: 42 }));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function storeWithCatalog() {
  const dir = mkdtempSync(join(tmpdir(), 'school-search-index-composed-'));
  dirs.push(dir);
  const path = join(dir, 'store.db');
  const store = await SqliteStore.open({ path });
  await store.schools.upsertMany(CATALOG);
  return { path, store };
}

/** The engine as the process composes it, and its log's messages. */
async function composed(store: SqliteStore, path: string) {
  const lines: Array<{ msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const engine = await composeEngine(
    store,
    { store: { kind: 'sqlite', path }, searchRefreshMs: 0 },
    logger,
    NO_METRICS,
  );
  await engine.start();
  await vi.waitFor(() => expect(lines.map((l) => l.msg)).toContain('search index file written'), { timeout: 5000 });
  return { engine, messages: () => lines.map((l) => l.msg) };
}

test('when the embedded store is restarted, then its index is read from <DATABASE_PATH>.index; beside another store, that file is not read', async () => {
  const a = await storeWithCatalog();
  const first = await composed(a.store, a.path);
  expect(existsSync(embeddedIndexPath(a.path))).toBe(true);
  const expected = await first.engine.search({ plan: planQuery('saint mary'), offset: 0, limit: 25 });
  first.engine.close();

  const read = vi.spyOn(a.store.schools, 'readCatalog');
  const lines: Array<{ msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const again = await composeEngine(
    a.store,
    { store: { kind: 'sqlite', path: a.path }, searchRefreshMs: 0 },
    logger,
    NO_METRICS,
  );
  await again.start();
  expect(read).not.toHaveBeenCalled();
  expect(lines.map((l) => l.msg)).toContain('search index loaded');
  const page = await again.search({ plan: planQuery('saint mary'), offset: 0, limit: 25 });
  expect({ total: page.total, hits: page.hits }).toEqual({ total: expected.total, hits: expected.hits });
  again.close();

  // Another store of the same catalog and catalog version: only its identity differs. (Each
  // import's version takes a random stamp: b is given a's, as a copy of a's file would have it.)
  const b = await storeWithCatalog();
  const stamp = (await a.store.schools.catalogVersion()).split(':')[2]!;
  const db = new DatabaseSync(b.path);
  db.prepare('UPDATE catalog SET stamp = ?').run(stamp);
  db.close();
  expect(await b.store.schools.catalogVersion()).toBe(await a.store.schools.catalogVersion());
  copyFileSync(embeddedIndexPath(a.path), embeddedIndexPath(b.path));
  const readB = vi.spyOn(b.store.schools, 'readCatalog');
  const other = await composed(b.store, b.path);
  expect(readB).toHaveBeenCalledTimes(1);
  expect(other.messages()).toContain('search index file not used: the index is built');
  other.engine.close();
  await a.store.close();
  await b.store.close();
});

test('when the embedded store is in memory, then no index file is kept', async () => {
  const store = await SqliteStore.open({ path: ':memory:' });
  await store.schools.upsertMany(CATALOG.slice(0, 10));
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const engine = await composeEngine(
    store,
    { store: { kind: 'sqlite', path: ':memory:' }, searchRefreshMs: 0 },
    logger,
    NO_METRICS,
  );
  await engine.start();
  expect(lines.join('')).not.toContain('index file');
  engine.close();
  await store.close();
});
