// MemorySearchEngine: keeps its index fresh from a catalog source (a store's catalogVersion and
// readCatalog), builds large catalogs in a worker thread with the same result, and keeps serving
// the previous index when a refresh fails.
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { MemorySearchEngine } from '../../src/search/memory/memory.engine.ts';

function school(i: number, name: string, more: Partial<CatalogSchool> = {}): CatalogSchool {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name,
    city: 'Springfield',
    state: 'MA',
    imageUrl: null,
    aliases: [],
    prominence: 0,
    ...more,
  };
}

/** A catalog source like a store's, whose catalog and version a test changes. */
class Source {
  schools: CatalogSchool[] = [];
  version = 1;
  reads = 0;
  failNext = false;
  async catalogVersion(): Promise<string> {
    return String(this.version);
  }
  async readCatalog(onBatch: (schools: readonly CatalogSchool[]) => void | Promise<void>): Promise<string> {
    this.reads++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the store cannot be read');
    }
    for (let i = 0; i < this.schools.length; i += 3) await onBatch(this.schools.slice(i, i + 3));
    return String(this.version);
  }
}

const search = async (engine: MemorySearchEngine, query: string) =>
  (await engine.search({ plan: planQuery(query), offset: 0, limit: 25 })).hits.map((h) => [
    h.school.name,
    h.school.city,
    h.score,
  ]);

describe('MemorySearchEngine', () => {
  test('when the catalog version changes, then refresh rebuilds; when it does not, then it reads nothing', async () => {
    const source = new Source();
    source.schools = [school(1, 'Harvard University', { city: 'Cambridge' })];
    const engine = new MemorySearchEngine(source, { refreshMs: 0 });
    await engine.start();
    expect(await search(engine, 'harvard')).toEqual([['Harvard University', 'Cambridge', 0.95]]);
    expect(await engine.refresh()).toBe(false);
    expect(source.reads).toBe(1);
    source.schools.push(school(2, 'Harvard Extension School'));
    source.version++;
    const [first, second] = await Promise.all([engine.refresh(), engine.refresh()]);
    expect([first, second]).toEqual([true, true]);
    expect(source.reads).toBe(2);
    expect((await search(engine, 'harvard')).length).toBe(2);
    engine.close();
  });

  test('when a refresh fails, then the previous index keeps serving and the next refresh tries again', async () => {
    const source = new Source();
    source.schools = [school(1, 'Yale University')];
    const events: boolean[] = [];
    const engine = new MemorySearchEngine(source, { refreshMs: 0, onRefresh: (e) => events.push(e.ok) });
    await engine.start();
    source.schools = [school(2, 'Brown University')];
    source.version++;
    source.failNext = true;
    await expect(engine.refresh()).rejects.toThrow('the store cannot be read');
    expect(await search(engine, 'yale')).toEqual([['Yale University', 'Springfield', 0.95]]);
    expect(await engine.refresh()).toBe(true);
    expect(await search(engine, 'brown')).toEqual([['Brown University', 'Springfield', 0.95]]);
    expect(events).toEqual([true, false, true]);
    engine.close();
  });

  test('when the catalog is past the worker threshold, then the index built in a worker thread answers as one built in place', async () => {
    const source = new Source();
    source.schools = Array.from({ length: 60 }, (_, i) =>
      school(
        i + 1,
        `${['Saint', 'St.', 'Lincoln', 'École', 'Harvard'][i % 5]} ${['Mary', 'College', 'Montréal', 'University'][i % 4]} ${i}`,
        {
          city: ['Montréal', 'Boston', 'Lincoln'][i % 3]!,
          state: ['QC', 'MA', 'NE'][i % 3]!,
          aliases: i % 7 === 0 ? ['SMC', `Alias ${i}`] : [],
          prominence: i % 11,
          imageUrl: i % 5 === 0 ? `https://logos.example.org/${i}.png` : null,
        },
      ),
    );
    const inPlace = new MemorySearchEngine(source, { refreshMs: 0 });
    const inWorker = new MemorySearchEngine(source, { refreshMs: 0, workerThreshold: 10 });
    await Promise.all([inPlace.start(), inWorker.start()]);
    for (const query of [
      'saint mary',
      'st',
      'montreal',
      'ecole',
      'smc',
      'harvrd university',
      'lincoln c',
      'alias 14',
    ]) {
      for (const state of [undefined, 'QC']) {
        const q = { plan: planQuery(query), state, offset: 0, limit: 25 };
        expect(await inWorker.search(q)).toEqual(await inPlace.search(q));
      }
    }
    inPlace.close();
    inWorker.close();
  });
});
