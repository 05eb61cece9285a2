// The catalog as it is read for serving, in one causal order per instance: the store's reads of
// it (a school, the count, the version poll, the catalog the in-process index is built from) and
// the search wing's pipelines (SchoolCatalog, catalog.port.ts) go through one ServedCatalog, so
// that whichever replica set member answers, none is older than what this instance read before.
// The MongoDB store makes it (src/stores/mongodb/school.store.ts) and hands it, through the
// composition root, to the search engines on MongoDB.
//
// How: the `operationTime` (and the signed `$clusterTime` with it) of the read that first saw the
// catalog's current version is kept, and every read starts in a causally consistent session
// advanced to them, so a member that has not applied that version waits until it has
// (afterClusterTime; majority reads in a causal session are monotonic) instead of answering from
// before (docs/stores.md, "The catalog on a replica set"). Only a version read moves that time:
// a member behind the primary by more than the operation time limit, but holding the current
// catalog, answers at once rather than waiting for writes of no concern to the catalog (issue 43, M1).
import type { ClientSession, ClusterTime, Collection, Document, Timestamp } from 'mongodb';
import type { PerVersionDocument, PipelineReads, SchoolCatalog } from './catalog.port.ts';
import { guarded } from './errors.ts';
import type { CatalogDocument, SchoolDocument } from './school-document.ts';

/**
 * Where the catalog is read for serving (searches, a school, the version poll, the catalog the
 * index is built from): on a replica set, a secondary when one is fresh enough. Imports and
 * their reads-before-write go to the primary.
 */
export interface CatalogReads {
  readonly schools: Collection<SchoolDocument>;
  readonly catalog: Collection<CatalogDocument>;
  /** A causally consistent session: reads in it see the store in order, whichever members answer. */
  readonly session?: () => ClientSession;
}

export interface ServedCatalogOptions<Fields extends object> {
  /** The schools collection on the primary (SchoolCatalog.schools). */
  readonly primary: Collection<SchoolDocument<Fields>>;
  readonly reads: CatalogReads;
  /** Each read's maxTimeMS. */
  readonly operationTimeLimitMs: number;
  /** SchoolCatalog.perVersion, when the extension keeps such a collection. */
  readonly perVersion?: (<T extends PerVersionDocument>() => Collection<T>) | undefined;
}

export class ServedCatalog<Fields extends object = object> implements SchoolCatalog<Fields> {
  /** The serving collections, for the store's own reads in this order (causally, session). */
  readonly reads: CatalogReads;
  readonly schools: Collection<SchoolDocument<Fields>>;
  readonly operationTimeLimitMs: number;
  readonly perVersion: (<T extends PerVersionDocument>() => Collection<T>) | undefined;
  /**
   * The cluster time at which this instance first read the catalog's current version (the
   * operationTime a replica set member answers with; undefined where none is sent: a standalone
   * server, FerretDB), the signed $clusterTime that came with it, and that version. Each read
   * for serving starts from them (session()), so this instance never reads the catalog older than
   * it already has: versions never go back, and what is read after a version holds every write
   * of that version (an import bumps the version after its writes). Later reads do not move it:
   * the primary's time runs on with every request record and token written, and a session asking
   * a secondary for that time would wait out its whole lag although the catalog it holds is the
   * current one (at a lag past the operation time limit, a 503 for about every other read).
   */
  #seen:
    | {
        readonly version: string;
        readonly operationTime: Timestamp | undefined;
        readonly clusterTime: ClusterTime | undefined;
      }
    | undefined;

  constructor(options: ServedCatalogOptions<Fields>) {
    this.schools = options.primary;
    this.reads = options.reads;
    this.operationTimeLimitMs = options.operationTimeLimitMs;
    this.perVersion = options.perVersion;
  }

  /**
   * A pipeline on the schools as they are read for serving, within the operation time limit, no
   * earlier than this instance's last catalog read: a count cached under the version read before
   * it holds every school of that version. With `local` (Atlas Search's stages, which mongod runs
   * with read concern `local` only, on an index no session can hold back), read concern `local`
   * and no session.
   */
  aggregate(pipeline: Document[], reads: PipelineReads = 'catalog'): Promise<Document[]> {
    const run = (options: Document) =>
      guarded(() =>
        this.reads.schools
          .aggregate(pipeline, { allowDiskUse: true, maxTimeMS: this.operationTimeLimitMs, ...options })
          .toArray(),
      );
    return reads === 'local' ? run({ readConcern: { level: 'local' } }) : this.causally(run);
  }

  /** The catalog's version, never older than one this instance read before. */
  catalogVersion(): Promise<string> {
    return this.causally(({ session }) => this.version(session));
  }

  /** The catalog's version as `session` reads it (in a read of several steps: session()). */
  async version(session?: ClientSession): Promise<string> {
    return String((await this.versionDocument(session))?.version ?? 0);
  }

  /** The version document as `session` reads it: the version, and the tickets an import's changes are told by. */
  async versionDocument(session?: ClientSession): Promise<CatalogDocument | null> {
    const doc = await guarded(() =>
      this.reads.catalog.findOne(
        { _id: 'schools' },
        { maxTimeMS: this.operationTimeLimitMs, ...(session ? { session } : {}) },
      ),
    );
    const version = String(doc?.version ?? 0);
    if (version !== this.#seen?.version) this.#first(version, session);
    return doc;
  }

  /** A version this instance had not read before, read in `session`: later reads start from its time. */
  #first(version: string, session: ClientSession | undefined): void {
    const operationTime = session?.operationTime;
    const seen = this.#seen?.operationTime;
    // Never back: a session started from the time seen answers at or after it.
    if (operationTime && (!seen || operationTime.greaterThan(seen)))
      this.#seen = { version, operationTime, clusterTime: session.clusterTime };
    else this.#seen = { version, operationTime: seen, clusterTime: this.#seen?.clusterTime };
  }

  /**
   * One read in the catalog's causal order: `read` gets the options that carry the session
   * (session(); none without sessions), which is ended (end()) however the read ends.
   */
  async causally<T>(read: (options: { session?: ClientSession }) => Promise<T>): Promise<T> {
    const session = this.session();
    try {
      return await read(session ? { session } : {});
    } finally {
      await this.end(session);
    }
  }

  /**
   * A causally consistent session that starts at the time this instance first read the catalog's
   * current version, for a read of several steps (end it with end()): a member behind it waits until
   * it has caught up (within the read's maxTimeMS, else the read fails, a 503) instead of
   * answering from before. Undefined without sessions.
   */
  session(): ClientSession | undefined {
    const session = this.reads.session?.();
    const seen = this.#seen;
    if (session && seen?.operationTime) {
      // The cluster time too, as the manual's example of causal consistency across sessions
      // does: a member refuses an afterClusterTime past the cluster time it knows, and the driver
      // gossips only the connection's last one or the session's (SERVER-30909).
      if (seen.clusterTime) session.advanceClusterTime(seen.clusterTime);
      session.advanceOperationTime(seen.operationTime);
    }
    return session;
  }

  /** Ends a session from session() (what it read moved the time kept only if it read a new version: version()). */
  async end(session: ClientSession | undefined): Promise<void> {
    await session?.endSession();
  }
}
