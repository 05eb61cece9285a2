// The catalog read for serving on a replica set whose members are at different points: the
// `text` engine's counts must never be cached under a version the member that counted had not
// reached (issue 26, finding 1), and the `memory` engine's index must never go back to an older
// catalog nor be rebuilt again and again when members disagree (finding 5). The members are
// stood in for (test/support/replica-set.ts): MongoDB's afterClusterTime wait, as the store's
// causally consistent sessions ask for it, is what they model.
import { describe, expect, test } from 'vitest';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import { OPERATION_TIME_LIMIT_MS } from '../../src/stores/mongodb/limits.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { MemorySearchEngine } from '../../src/search/memory/memory.engine.ts';
import type { MongoSchoolStore } from '../../src/stores/mongodb/school.store.ts';
import { toDocument } from '../../src/mongodb-shared/school-document.ts';
import type { DerivedSearch } from '../../src/search/mongodb/search-fields.ts';
import { searchSource } from '../../src/search/mongodb/engines.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { MongoTextEngine } from '../../src/search/mongodb/text.engine.ts';
import { school } from '../support/builders.ts';
import { ReplicaSetStandIn } from '../support/replica-set.ts';

const academies = ['North Academy', 'South Academy', 'East Academy'].map((name) =>
  toDocument(school(name), SEARCH_EXTENSION),
);
const zephyr = toDocument(school('Zephyr Academy'), SEARCH_EXTENSION);

/** A set whose primary imported the academies (version 1), then Zephyr Academy (version 2). */
function importedTwice(...members: string[]): ReplicaSetStandIn {
  const set = new ReplicaSetStandIn(...members);
  set.write(academies);
  set.bump();
  set.catchUp();
  set.write([zephyr]);
  set.bump();
  return set;
}

/** The text engine over the store as the search wing wires it (engines.ts), reading the version at every search. */
function textEngine(store: MongoSchoolStore<DerivedSearch>): MongoTextEngine {
  // Its setup is not what is tested: the stand-in's members list no indexes.
  return new MongoTextEngine(
    { ...searchSource(store.catalog, { kind: 'text' }), ready: async () => undefined },
    { versionTtlMs: 0 },
  );
}

const names = async (engine: { search: MongoTextEngine['search'] }, query: string) =>
  (await engine.search({ plan: planQuery(query), offset: 0, limit: 25 })).hits.map((h) => h.school.name);

describe('the $text engine on members at two versions (finding 1)', () => {
  test('when the version is read on an up-to-date member and the words counted on a lagging one, then the school the last import added is found, and stays found', async () => {
    const set = importedTwice('A', 'B');
    set.catchUp(set.member('A'));
    // The version poll reaches A, every search pipeline B, which has not applied the import.
    set.route = ({ collection }) => set.member(collection === 'catalog' ? 'A' : 'B');
    const engine = textEngine(set.store());
    const whileLagging = await names(engine, 'zephyr');
    set.catchUp();
    // Once every member has it, nothing this instance cached may hide it (until the next import).
    expect(await names(engine, 'zephyr')).toEqual(['Zephyr Academy']);
    expect(await names(engine, 'zephyr academy')).toEqual(['Zephyr Academy']);
    // And already while B lagged: B waited for the time the version was read at.
    expect(whileLagging).toEqual(['Zephyr Academy']);
  });

  test('when the lagging member cannot catch up (replication stalled), then its searches are a 503 and cache nothing: once it has caught up, the school is found', async () => {
    const set = importedTwice('A', 'B');
    set.catchUp(set.member('A'));
    set.member('B').stuck = true;
    set.route = ({ collection }) => set.member(collection === 'catalog' ? 'A' : 'B');
    const engine = textEngine(set.store());
    await expect(names(engine, 'zephyr')).rejects.toBeInstanceOf(StoreUnavailableError);
    set.member('B').stuck = false;
    set.catchUp();
    expect(await names(engine, 'zephyr')).toEqual(['Zephyr Academy']);
  });
});

describe("a school's own record on a lagging member", () => {
  test('when a school a search found is read by its id on a member that has not applied its import, then the member waits, and the record is found', async () => {
    const set = importedTwice('A', 'B');
    set.catchUp(set.member('A'));
    // Searches (the version and the pipelines) reach A; the record's read reaches B, behind it.
    set.route = ({ collection, method }) =>
      set.member(collection === 'schools' && (method === 'findOne' || method === 'countDocuments') ? 'B' : 'A');
    const store = set.store();
    const engine = textEngine(store);
    const [found] = (await engine.search({ plan: planQuery('zephyr'), offset: 0, limit: 1 })).hits;
    expect(found?.school.name).toBe('Zephyr Academy');
    expect((await store.findRecord(found!.school.id))?.name).toBe('Zephyr Academy');
    expect((await store.findById(found!.school.id))?.name).toBe('Zephyr Academy');
    expect(await store.count()).toBe(4);
    expect(set.reads.filter((r) => r.member === 'B')[0]).toMatchObject({ method: 'findOne', waited: true });
  });
});

describe("a school's own record on a stalled member (issue 43, M1)", () => {
  test('when a record, a school by id or the count is read on a member that cannot catch up, then each is a 503 bounded by the operation time limit, not held to the socket timeout', async () => {
    const set = importedTwice('A', 'B');
    set.catchUp(set.member('A'));
    set.member('B').stuck = true;
    set.route = ({ collection, method }) =>
      set.member(collection === 'schools' && (method === 'findOne' || method === 'countDocuments') ? 'B' : 'A');
    const store = set.store();
    // The version read on A makes the session ask B for a time it has not reached.
    await store.catalogVersion();
    const id = String(zephyr._id);
    await expect(store.findRecord(id)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.findById(id)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.count()).rejects.toBeInstanceOf(StoreUnavailableError);
    const onB = set.reads.filter((r) => r.member === 'B');
    expect(onB.map((r) => r.method)).toEqual(['findOne', 'findOne', 'countDocuments']);
    for (const read of onB) expect(read).toMatchObject({ waited: true, maxTimeMS: OPERATION_TIME_LIMIT_MS });
  });
});

describe('the memory engine on members that disagree (finding 5)', () => {
  /** Refreshes, each reading only from the member named, in turn; the index's catalog after each, and how many builds. */
  async function refreshInTurn(set: ReplicaSetStandIn, order: readonly string[]) {
    let builds = 0;
    const store = set.store();
    const engine = new MemorySearchEngine(store, { refreshMs: 0, onRefresh: (e) => void (e.ok && builds++) });
    set.route = () => set.member('A');
    await engine.start();
    const served: string[] = [];
    for (const name of order) {
      set.route = () => set.member(name);
      await engine.refresh().catch(() => undefined);
      served.push((await names(engine as never, 'zephyr')).length === 1 ? 'v2' : 'v1');
    }
    engine.close();
    return { served, builds };
  }

  test('when refreshes read in turn from a member with the new catalog and one stalled at the old, then the index never goes back to the old catalog and is built once', async () => {
    const set = importedTwice('A', 'B');
    set.catchUp(set.member('A'));
    set.member('B').stuck = true;
    const { served, builds } = await refreshInTurn(set, ['B', 'A', 'B', 'A', 'B', 'A']);
    expect(served).toEqual(['v2', 'v2', 'v2', 'v2', 'v2', 'v2']);
    expect(builds).toBe(1);
  });

  test('when the lagging member catches up as it is waited for, then its reads see the new catalog and nothing is rebuilt', async () => {
    const set = importedTwice('A', 'B');
    set.catchUp(set.member('A'));
    const { served, builds } = await refreshInTurn(set, ['B', 'A', 'B', 'A']);
    expect(served).toEqual(['v2', 'v2', 'v2', 'v2']);
    expect(builds).toBe(1);
    // B waited for the time of what this instance had read on A, instead of answering with its own
    // (told of that time by the $clusterTime the read gossiped, so it did not refuse to wait).
    expect(set.reads.filter((r) => r.member === 'B')[0]).toMatchObject({ collection: 'catalog', waited: true });
    expect(set.member('B').applied).toBe(set.latest);
  });
});

describe('a member behind the primary that holds the current catalog (issue 43, M1)', () => {
  /**
   * Both members applied both imports; then the primary wrote on (request records, tokens) and
   * B stopped applying: B is behind the primary, past the operation time limit, with the catalog
   * every search needs. The version was first read while B was up to date.
   */
  async function behindWithTheCatalog() {
    const set = importedTwice('A', 'B');
    set.catchUp();
    const store = set.store();
    set.route = () => set.member('A');
    expect(await store.catalogVersion()).toBe('2');
    set.tick(3);
    set.catchUp(set.member('A'));
    set.member('B').stuck = true;
    return { set, store };
  }

  test('when searches read the version on the primary and their pipelines on the member behind, then none waits for writes that are not the catalog: every search is answered', async () => {
    const { set, store } = await behindWithTheCatalog();
    let turn = 0;
    // Server selection spreads the pipelines: every other one reaches B.
    set.route = ({ collection }) => set.member(collection === 'catalog' || turn++ % 2 === 0 ? 'A' : 'B');
    const engine = textEngine(store);
    for (const query of ['zephyr', 'north academy', 'academy', 'east', 'south academy', 'zephyr academy'])
      expect(await names(engine, query)).not.toEqual([]);
    const onB = set.reads.filter((r) => r.member === 'B');
    expect(onB.length).toBeGreaterThan(0);
    for (const read of onB) expect(read).toMatchObject({ method: 'aggregate', waited: false });
  });

  test("when a search ran on the primary and the school's record, by id, or the count is read on the member behind, then each is answered at once", async () => {
    const { set, store } = await behindWithTheCatalog();
    set.route = ({ collection, method }) =>
      set.member(collection === 'schools' && (method === 'findOne' || method === 'countDocuments') ? 'B' : 'A');
    const [found] = (await textEngine(store).search({ plan: planQuery('zephyr'), offset: 0, limit: 1 })).hits;
    expect(found?.school.name).toBe('Zephyr Academy');
    expect((await store.findRecord(found!.school.id))?.name).toBe('Zephyr Academy');
    expect((await store.findById(found!.school.id))?.name).toBe('Zephyr Academy');
    expect(await store.count()).toBe(4);
    const onB = set.reads.filter((r) => r.member === 'B');
    expect(onB.map((r) => r.method)).toEqual(['findOne', 'findOne', 'countDocuments']);
    for (const read of onB) expect(read.waited).toBe(false);
  });

  test('when a search ran on a member that applied an import the version poll has not seen, then the school it found is read on the primary rather than a 404 from a member behind', async () => {
    const set = importedTwice('A', 'B');
    set.catchUp();
    const store = set.store();
    set.route = () => set.member('B');
    expect(await store.catalogVersion()).toBe('2');
    // A third import: A (the primary) has it, B not yet; the poll still reads B.
    set.write([toDocument(school('Quill Academy'), SEARCH_EXTENSION)]);
    set.bump();
    set.catchUp(set.member('A'));
    set.route = ({ collection, method }) => set.member(collection === 'schools' && method === 'aggregate' ? 'A' : 'B');
    const [found] = (await textEngine(store).search({ plan: planQuery('quill'), offset: 0, limit: 1 })).hits;
    expect(found?.school.name).toBe('Quill Academy');
    expect((await store.findRecord(found!.school.id))?.name).toBe('Quill Academy');
    // An id no member holds is still none (one read more, on the primary).
    expect(await store.findRecord('no-such-school')).toBeNull();
    const records = set.reads.filter((r) => r.method === 'findOne' && r.collection === 'schools');
    expect(records.map((r) => [r.member, r.readConcern])).toEqual([
      ['B', undefined],
      ['A', 'majority'],
      ['B', undefined],
      ['A', 'majority'],
    ]);
  });
});

describe('the catalog read on a slow member (issue 43, M4)', () => {
  test('when reading the whole catalog takes the member longer than the operation time limit, then the index is still built: each page of the read has a limit of its own', async () => {
    const set = new ReplicaSetStandIn('A');
    const names = Array.from({ length: 25 }, (_, i) => `Slow Academy ${String(i).padStart(2, '0')}`);
    set.write(names.map((name) => toDocument(school(name), SEARCH_EXTENSION)));
    set.bump();
    set.catchUp();
    // 25 documents at 500 ms each: 12.5 s in all, 5 s a page of 10.
    set.member('A').msPerDocument = OPERATION_TIME_LIMIT_MS / 20;
    const engine = new MemorySearchEngine(set.store(10), { refreshMs: 0 });
    await engine.start();
    try {
      const found = await engine.search({ plan: planQuery('slow academy'), offset: 0, limit: 25 });
      expect(found.total).toBe(25);
      expect(found.hits.map((h) => h.school.name).sort()).toEqual(names);
    } finally {
      engine.close();
    }
    const finds = set.reads.filter((r) => r.method === 'find');
    expect(finds).toHaveLength(3);
    for (const read of finds) expect(read.maxTimeMS).toBe(OPERATION_TIME_LIMIT_MS);
  });
});
