// A replica set as the catalog's serving reads meet it (store.ts, catalogReads), stood in for:
// no replica set can run here, and FerretDB is one node. The store's history is a list of states
// (an import's writes, then its version bump, each at the next cluster time); each member has
// applied it up to some point and answers every read from there, as a lagging secondary does.
// A read in a causally consistent session whose operationTime is past what the member has
// applied waits, as MongoDB makes it wait for afterClusterTime: the member catches up to that
// time, or, when it is `stuck` (replication stalled), the wait ends at maxTimeMS with
// MaxTimeMSExpired; a member refuses an afterClusterTime past the $clusterTime the read gossips
// (SERVER-30909). Every answer advances the session's operationTime and $clusterTime to the
// member's applied time, as the driver does with the server's. $text is stood in for by mingo over
// the documents (scripts/quality/mingo-search.ts). Which member answers is the test's choice
// (`route`), as the driver's server selection is MongoDB's.
import {
  Binary,
  Long,
  MongoServerError,
  Timestamp,
  type ClientSession,
  type ClusterTime,
  type Collection,
  type Document,
} from 'mongodb';
import { mingoSourceOf } from '../../scripts/quality/mingo-search.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import type { CatalogDocument } from '../../src/mongodb-shared/school-document.ts';
import type { CatalogReads } from '../../src/mongodb-shared/served-catalog.ts';
import type { DerivedSearch, SearchedSchool } from '../../src/search/mongodb/search-fields.ts';
import { MongoSchoolStore } from '../../src/stores/mongodb/school.store.ts';

interface State {
  readonly version: number;
  readonly schools: ReadonlyMap<string, SearchedSchool>;
}

/** One read as a member saw it: which collection, which method, with what options. */
export interface ReadMade {
  readonly member: string;
  readonly collection: 'schools' | 'catalog';
  readonly method: string;
  readonly afterClusterTime: number | undefined;
  readonly readConcern: string | undefined;
  readonly waited: boolean;
  /** The read's maxTimeMS: what bounds its wait on a member that cannot catch up (undefined: nothing but the socket timeout). */
  readonly maxTimeMS: number | undefined;
  /** The $clusterTime the session gossiped: a member refuses an afterClusterTime past the one it knows. */
  readonly clusterTime: number | undefined;
}

export class Member {
  readonly name: string;
  /** How many states of the history it has applied (its time: the last one's). */
  applied: number;
  /** Replication stalled: a read that must wait fails at maxTimeMS instead. */
  stuck = false;
  /**
   * The server time a find spends on each document it returns (a cold cache, a slow disk): a
   * query whose documents take more than its maxTimeMS fails with MaxTimeMSExpired, as a cursor
   * does once its getMores add up past it. None is spent unless a test says so.
   */
  msPerDocument = 0;

  constructor(name: string, applied: number) {
    this.name = name;
    this.applied = applied;
  }
}

/** A fake driver session: only what the store and the driver's causal consistency use. */
class FakeSession {
  readonly supports = { causalConsistency: true };
  operationTime: Timestamp | undefined;
  clusterTime: ClusterTime | undefined;
  hasEnded = false;

  advanceOperationTime(time: Timestamp): void {
    if (!this.operationTime || time.greaterThan(this.operationTime)) this.operationTime = time;
  }

  advanceClusterTime(time: ClusterTime): void {
    if (!this.clusterTime || time.clusterTime.greaterThan(this.clusterTime.clusterTime)) this.clusterTime = time;
  }

  async endSession(): Promise<void> {
    this.hasEnded = true;
  }
}

export class ReplicaSetStandIn {
  readonly #history: State[] = [{ version: 0, schools: new Map() }];
  readonly members: Member[];
  /** Who answers the next read (default: the first member). */
  route: (read: { collection: 'schools' | 'catalog'; method: string }) => Member;
  readonly reads: ReadMade[] = [];

  constructor(...names: string[]) {
    this.members = names.map((name) => new Member(name, 1));
    this.route = () => this.members[0]!;
  }

  member(name: string): Member {
    return this.members.find((m) => m.name === name)!;
  }

  /** The primary writes schools (an import's batches, before its bump): a new state. */
  write(schools: readonly SearchedSchool[]): void {
    const last = this.#history.at(-1)!;
    const next = new Map(last.schools);
    for (const s of schools) next.set(s._id, s);
    this.#history.push({ version: last.version, schools: next });
  }

  /** The primary bumps the catalog's version (the end of an import): a new state. */
  bump(): void {
    const last = this.#history.at(-1)!;
    this.#history.push({ version: last.version + 1, schools: last.schools });
  }

  /**
   * The primary writes to other collections (request records, tokens, quotas): new states, the
   * catalog unchanged. The cluster time runs on with them, and a member that has not applied
   * them is behind the primary while holding the current catalog.
   */
  tick(times = 1): void {
    for (let i = 0; i < times; i++) this.#history.push(this.#history.at(-1)!);
  }

  /** How many states the primary has written: a member with this many has applied everything. */
  get latest(): number {
    return this.#history.length;
  }

  /** Every member applies every state written so far (replication caught up). */
  catchUp(...members: Member[]): void {
    for (const m of members.length ? members : this.members) m.applied = this.latest;
  }

  /** The serving handles a MongoSchoolStore reads the catalog through, and their sessions. */
  catalogReads(): CatalogReads {
    return {
      schools: this.#collection('schools') as unknown as CatalogReads['schools'],
      catalog: this.#collection('catalog') as unknown as Collection<CatalogDocument>,
      session: () => new FakeSession() as unknown as ClientSession,
    };
  }

  /** A store whose catalog-serving reads go to this replica set (imports are not stood in for). */
  store(catalogPage?: number): MongoSchoolStore<DerivedSearch> {
    const reads = this.catalogReads();
    // Imports and the search wing's setup are not stood in for: the primary's handle reads what
    // the primary (the first member, up to date) holds, whatever `route` says.
    const primary = this.#collection('schools', () => this.#primary()) as unknown as Collection<SearchedSchool>;
    return new MongoSchoolStore(primary, reads.catalog, SEARCH_EXTENSION, reads, undefined, catalogPage);
  }

  /** The first member, as the primary: it has applied every state written. */
  #primary(): Member {
    const primary = this.members[0]!;
    primary.applied = this.latest;
    return primary;
  }

  /** The state a read sees on the member chosen for it, after any wait its session asks for. */
  #answer(
    collection: 'schools' | 'catalog',
    method: string,
    options: Document | undefined,
    pinned?: () => Member,
  ): State {
    const member = pinned?.() ?? this.route({ collection, method });
    const session = options?.['session'] as FakeSession | undefined;
    const after = session?.operationTime?.getHighBits();
    const clusterTime = session?.clusterTime?.clusterTime.getHighBits();
    const readConcern = (options?.['readConcern'] as { level?: string } | undefined)?.level;
    const maxTimeMS = options?.['maxTimeMS'] as number | undefined;
    const read = {
      member: member.name,
      collection,
      method,
      afterClusterTime: after,
      readConcern,
      clusterTime,
      maxTimeMS,
    };
    if (after !== undefined && after > member.applied) {
      this.reads.push({ ...read, waited: true });
      // A member that has not heard of that time refuses it, unless the client gossips it.
      if (after > (clusterTime ?? member.applied))
        throw new MongoServerError({
          code: 72,
          codeName: 'InvalidOptions',
          errmsg: 'readConcern afterClusterTime must not be greater than clusterTime value',
        });
      if (member.stuck || after > this.latest)
        throw new MongoServerError({ code: 50, codeName: 'MaxTimeMSExpired', errmsg: 'operation exceeded time limit' });
      member.applied = after;
    } else this.reads.push({ ...read, waited: false });
    // The member's time: the cluster time of the last state it applied (state n at time n), and
    // the signed $clusterTime the driver keeps in the session.
    session?.advanceOperationTime(new Timestamp({ t: member.applied, i: 0 }));
    session?.advanceClusterTime({
      clusterTime: new Timestamp({ t: member.applied, i: 0 }),
      signature: { hash: new Binary(Buffer.alloc(20)), keyId: Long.fromNumber(0) },
    });
    return this.#history[member.applied - 1]!;
  }

  /** A collection's handle: its reads answered by the member `route` chooses, or always by `pinned`'s. */
  #collection(name: 'schools' | 'catalog', pinned?: () => Member) {
    return {
      findOne: async (filter: Document, options?: Document) => {
        const state = this.#answer(name, 'findOne', options, pinned);
        if (name === 'catalog') return { _id: 'schools', version: state.version };
        return state.schools.get(String(filter['_id'])) ?? null;
      },
      countDocuments: async (_filter: Document, options?: Document) =>
        this.#answer(name, 'countDocuments', options, pinned).schools.size,
      find: (filter: Document, options?: Document) => {
        // A cursor's first batch is read when it is first asked for, as the driver's is; this
        // one hands the whole answer over as that one batch (hasNext, readBufferedDocuments).
        // Of a filter and sort, the catalog's pages are read: `_id > after`, in the ids' order.
        let batch: Document[] | undefined;
        let taken = false;
        const answer = () => {
          const state = this.#answer(name, 'find', options, pinned);
          const after = (filter['_id'] as { $gt?: string } | undefined)?.$gt;
          let found = [...state.schools.values()];
          if (after !== undefined) found = found.filter((s) => s._id > after);
          if (options?.['sort']) found.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
          if (options?.['limit']) found = found.slice(0, options['limit'] as number);
          const member = this.reads.at(-1)!.member;
          const spent = found.length * this.member(member).msPerDocument;
          if (options?.['maxTimeMS'] !== undefined && spent > (options['maxTimeMS'] as number))
            throw new MongoServerError({
              code: 50,
              codeName: 'MaxTimeMSExpired',
              errmsg: 'operation exceeded time limit',
            });
          return found;
        };
        return {
          hasNext: async () => {
            if (!taken && batch === undefined) batch = answer();
            return !taken && batch !== undefined && batch.length > 0;
          },
          readBufferedDocuments: () => {
            taken = true;
            return batch ?? [];
          },
          close: async () => {
            taken = true;
          },
        };
      },
      aggregate: (pipeline: Document[], options?: Document) => ({
        toArray: async () => {
          const state = this.#answer(name, 'aggregate', options, pinned);
          return mingoSourceOf(async () => [...state.schools.values()]).aggregate(pipeline);
        },
      }),
    };
  }
}
