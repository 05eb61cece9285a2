// MemorySearchEngine: keeps its index fresh from a catalog source (a store's catalogVersion and
// readCatalog), builds large catalogs in a worker thread with the same result, keeps serving
// the previous index when a refresh fails, takes the catalog in batches without holding them,
// and starts over when the store says the read does.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test, vi } from 'vitest';
import { slowTest } from '../support/slow.ts';
import type { CatalogChunk, CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { MemorySearchEngine } from '../../src/search/memory/memory.engine.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';

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
  async *readCatalog(): AsyncGenerator<CatalogChunk> {
    this.reads++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the store cannot be read');
    }
    for (let i = 0; i < this.schools.length; i += 3) yield { kind: 'schools', schools: this.schools.slice(i, i + 3) };
    yield { kind: 'version', version: String(this.version) };
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

  test('when a rebuild swaps a new index in, then the previous one gives its memory back at once, and answers no more', async () => {
    const release = vi.spyOn(MemoryIndex.prototype, 'release');
    try {
      const source = new Source();
      source.schools = [school(1, 'Yale University')];
      const engine = new MemorySearchEngine(source, { refreshMs: 0 });
      await engine.start();
      expect(release).not.toHaveBeenCalled();
      source.schools = [school(2, 'Brown University')];
      source.version++;
      expect(await engine.refresh()).toBe(true);
      expect(release).toHaveBeenCalledTimes(1);
      const previous = release.mock.contexts[0] as MemoryIndex;
      expect(() => previous.search({ plan: planQuery('yale'), offset: 0, limit: 25 })).toThrow('released');
      expect(await search(engine, 'brown')).toEqual([['Brown University', 'Springfield', 0.95]]);
      engine.close();
    } finally {
      release.mockRestore();
    }
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

/** A full garbage collection, without starting the process with --expose-gc. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A store's catalog of `batches` batches of `size` schools, each batch made when it is asked for:
 * before making the next one, it collects garbage and counts the schools it has handed over that
 * are still alive, so it knows how much of the catalog the consumer holds decoded.
 */
class StreamingSource {
  readonly #handed: WeakRef<CatalogSchool>[] = [];
  /** The most schools alive at once, seen before each batch. */
  mostAlive = 0;
  /** Batches made: each only when the consumer asked for it. */
  made = 0;
  readonly batches: number;
  readonly size: number;
  constructor(batches: number, size: number) {
    this.batches = batches;
    this.size = size;
  }
  async catalogVersion(): Promise<string> {
    return '1';
  }
  async *readCatalog(): AsyncGenerator<CatalogChunk> {
    for (let b = 0; b < this.batches; b++) {
      // A turn of the event loop, then a full collection: what is alive now is held by the consumer.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      this.mostAlive = Math.max(this.mostAlive, this.#handed.filter((ref) => ref.deref() !== undefined).length);
      let schools: CatalogSchool[] | undefined = Array.from({ length: this.size }, (_, i) =>
        school(b * this.size + i + 1, `Stream ${['Elementary', 'High', 'Middle'][i % 3]} School ${b}-${i}`),
      );
      this.made++;
      for (const s of schools) this.#handed.push(new WeakRef(s));
      yield { kind: 'schools', schools };
      schools = undefined;
    }
    yield { kind: 'version', version: '1' };
  }
}

describe('MemorySearchEngine: the catalog in batches', () => {
  slowTest.each([
    ['on this thread', 1_000_000],
    ['in a worker thread', 200],
  ])(
    'when a catalog of 40 batches is indexed %s, then at most two batches of schools are alive at once, and every school is found',
    async (_where, workerThreshold) => {
      const source = new StreamingSource(40, 100);
      const engine = new MemorySearchEngine(source, { refreshMs: 0, workerThreshold });
      await engine.start();
      expect(source.made).toBe(40);
      expect(source.mostAlive).toBeLessThanOrEqual(2 * source.size);
      expect(engine.size).toBe(4_000);
      const page = await engine.search({ plan: planQuery('stream school 39-99'), offset: 0, limit: 1 });
      expect(page.hits.map((h) => h.school.name)).toEqual(['Stream Elementary School 39-99']);
      engine.close();
    },
  );

  test('when the store restarts its read (the catalog moved meanwhile), then the index holds what came after the restart, at its version', async () => {
    const source = {
      reads: 0,
      async catalogVersion() {
        return '2';
      },
      async *readCatalog(): AsyncGenerator<CatalogChunk> {
        this.reads++;
        yield { kind: 'schools', schools: [school(1, 'Gone Academy'), school(2, 'Kept College')] };
        yield { kind: 'restart' };
        yield { kind: 'schools', schools: [school(2, 'Kept College')] };
        yield { kind: 'schools', schools: [school(3, 'New Academy')] };
        yield { kind: 'version', version: '2' };
      },
    };
    for (const workerThreshold of [1_000_000, 1]) {
      const engine = new MemorySearchEngine(source, { refreshMs: 0, workerThreshold });
      await engine.start();
      expect(engine.size).toBe(2);
      expect(await search(engine, 'gone')).toEqual([]);
      expect((await search(engine, 'academy')).map(([name]) => name)).toEqual(['New Academy']);
      // The version read is the one the store gave: nothing changed since, nothing is read again.
      expect(await engine.refresh()).toBe(false);
      engine.close();
    }
    expect(source.reads).toBe(2);
  });
});
