import {
  MongoBulkWriteError,
  type AnyBulkWriteOperation,
  type ClientSession,
  type ClusterTime,
  type Collection,
  type Document,
  type Timestamp,
} from 'mongodb';
import { nameSortKey } from '../../domain/shared/normalize.ts';
import type {
  CatalogChunk,
  ImportCounts,
  School,
  SchoolDraft,
  SchoolRecord,
  SchoolStore,
} from '../../domain/catalog/catalog.ports.ts';
import { knownKind } from '../../domain/catalog/school-kind.ts';
import { knownLocation } from '../../domain/catalog/school-location.ts';
import { sameSchool } from '../../domain/catalog/same-school.ts';
import {
  CATALOG_SCHOOL_FIELDS,
  toCatalogSchool,
  toSchool,
  type CatalogSchoolShown,
} from '../../mongodb/school.document.ts';
import type {
  PipelineReads,
  SchoolSearchFields,
  SearchCatalog,
  SearchTotalDocument,
} from '../../search/mongodb/catalog.port.ts';
import type { CatalogDocument, SchoolDocument } from './documents.ts';
import { guarded } from '../../mongodb/errors.ts';
import { OPERATION_TIME_LIMIT_MS } from './limits.ts';

/** Schools per round trip of an import: small enough for one bulk command, large enough to be quick. */
export const IMPORT_BATCH = 1000;

/** What a page or a catalog read never needs: the search fields (large: every token). */
const WITHOUT_SEARCH_FIELDS = { tokens: 0, search: 0, searchVersion: 0 } as const;

/** Schools read per round trip when the catalog is loaded. */
const CATALOG_BATCH = 2000;
/** How often readCatalog starts over when an import changed the catalog while it read. */
const CATALOG_READ_ATTEMPTS = 5;

/**
 * Where the catalog is read for serving (searches, a school, the version poll, the catalog the
 * index is built from): on a replica set, a secondary when one is fresh enough. Imports and
 * their reads-before-write go to the primary (the collections given first).
 */
export interface CatalogReads {
  readonly schools: Collection<SchoolDocument>;
  readonly catalog: Collection<CatalogDocument>;
  /** A causally consistent session: reads in it see the store in order, whichever members answer. */
  readonly session?: () => ClientSession;
}

/**
 * The catalog's store, and the store's side of the search wing's port (SearchCatalog): the wing's
 * pipelines run here, on the catalog's reads, its search fields (`fields`) are written with every
 * school and rewritten when their version is not the wing's, and its shared totals are kept here
 * (`totals`) and deleted once the catalog's version has moved past theirs.
 */
export class MongoSchoolStore implements SchoolStore, SearchCatalog {
  readonly #schools: Collection<SchoolDocument>;
  readonly #catalog: Collection<CatalogDocument>;
  readonly #fields: SchoolSearchFields;
  readonly #reads: CatalogReads;
  /**
   * The latest cluster time a catalog read of this store has seen (the operationTime a replica
   * set member answers with; undefined where none is sent: a standalone server, FerretDB), and
   * the signed $clusterTime that came with it. Each catalog read for serving starts from them
   * (#session), so this instance never reads the catalog older than it already has, whichever
   * member answers: versions never go back, and what is read after a version holds every write
   * of that version (docs/stores.md).
   */
  #seen: { readonly operationTime: Timestamp; readonly clusterTime: ClusterTime | undefined } | undefined;
  /** SearchCatalog: the search wing's totals shared by every instance per catalog version, when given a collection. */
  readonly totals: Collection<SearchTotalDocument> | undefined;

  constructor(
    schools: Collection<SchoolDocument>,
    catalog: Collection<CatalogDocument>,
    fields: SchoolSearchFields,
    reads: CatalogReads = { schools, catalog },
    totals?: Collection<SearchTotalDocument>,
  ) {
    this.#schools = schools;
    this.#catalog = catalog;
    this.#fields = fields;
    this.#reads = reads;
    this.totals = totals;
  }

  /**
   * SearchCatalog: a search pipeline on the schools as they are read for serving, within the
   * operation time limit, no earlier than this store's last catalog read (#session): a count
   * cached under the version read before it holds every school of that version. With `local`
   * (the wing's Atlas Search stages, which mongod runs with read concern `local` only, on an
   * index no session can hold back), read concern `local` and no session.
   */
  aggregate(pipeline: Document[], reads: PipelineReads = 'catalog'): Promise<Document[]> {
    const run = (options: Document) =>
      guarded(() =>
        this.#reads.schools
          .aggregate(pipeline, { allowDiskUse: true, maxTimeMS: OPERATION_TIME_LIMIT_MS, ...options })
          .toArray(),
      );
    return reads === 'local' ? run({ readConcern: { level: 'local' } }) : this.#causally(run);
  }

  /** SearchCatalog: what one operation may take on the server (each pipeline's maxTimeMS). */
  get operationTimeLimitMs(): number {
    return OPERATION_TIME_LIMIT_MS;
  }

  /** SearchCatalog: the collection on the primary, for the search wing's setup and readiness checks. */
  get collection(): Collection<Document> {
    return this.#schools as unknown as Collection<Document>;
  }

  /**
   * A causally consistent session that starts at the latest time this store has seen the
   * catalog at: a member behind it waits until it has caught up (within the read's maxTimeMS,
   * else the read fails, a 503) instead of answering from before. Undefined without sessions.
   */
  #session(): ClientSession | undefined {
    const session = this.#reads.session?.();
    if (session && this.#seen) {
      // The cluster time too, as the manual's example of causal consistency across sessions
      // does: a member refuses an afterClusterTime past the cluster time it knows, and the driver
      // gossips only the connection's last one or the session's (SERVER-30909).
      if (this.#seen.clusterTime) session.advanceClusterTime(this.#seen.clusterTime);
      session.advanceOperationTime(this.#seen.operationTime);
    }
    return session;
  }

  /**
   * One read in the catalog's causal order: `read` gets the options that carry the session
   * (#session; none without sessions), which is ended (#saw) however the read ends.
   */
  async #causally<T>(read: (options: { session?: ClientSession }) => Promise<T>): Promise<T> {
    const session = this.#session();
    try {
      return await read(session ? { session } : {});
    } finally {
      await this.#saw(session);
    }
  }

  /** Ends a session from #session, keeping the time it read at when it is the latest seen. */
  async #saw(session: ClientSession | undefined): Promise<void> {
    if (!session) return;
    const operationTime = session.operationTime;
    if (operationTime && (!this.#seen || operationTime.greaterThan(this.#seen.operationTime)))
      this.#seen = { operationTime, clusterTime: session.clusterTime };
    await session.endSession();
  }

  /**
   * Rewrites the search fields of documents whose version is not the search wing's (`school-search
   * indexes`), a batch at a time, with fields the wing derives; returns how many. Searches in text
   * or Atlas mode answer 503 until none is left (the wing's readiness: src/search/mongodb/setup.ts).
   */
  async upgradeSearchFields(onProgress?: (done: number) => void): Promise<number> {
    let done = 0;
    // One time for the whole rewrite, given to the documents written before `updatedAt` existed:
    // they changed no later (an import since would have given them its own).
    const now = new Date();
    for (;;) {
      const batch = await guarded(() =>
        this.#schools
          .find(
            { searchVersion: { $ne: this.#fields.version } },
            {
              projection: { ...CATALOG_SCHOOL_FIELDS, updatedAt: 1 },
              limit: IMPORT_BATCH,
            },
          )
          .toArray(),
      );
      if (batch.length === 0) return done;
      await guarded(() =>
        this.#schools.bulkWrite(
          batch.map((d) => {
            const derived = this.#fields.derive(toCatalogSchool(d));
            return {
              updateOne: {
                filter: { _id: d._id },
                update: {
                  $set: {
                    ...derived,
                    sortKey: nameSortKey(d.name),
                    ...(d.updatedAt === undefined ? { updatedAt: now } : {}),
                  },
                  // `texts`: the search fields of version 1; `geo` of a school whose coordinates are gone.
                  $unset: { texts: '', ...(derived.geo === undefined ? { geo: '' } : {}) },
                },
              },
            };
          }),
          { ordered: false },
        ),
      );
      done += batch.length;
      onProgress?.(done);
    }
  }

  async findById(id: string): Promise<School | null> {
    const doc = await this.#findOne(id);
    return doc ? toSchool(doc) : null;
  }

  async findRecord(id: string): Promise<SchoolRecord | null> {
    const doc = await this.#findOne(id);
    if (!doc) return null;
    return {
      ...toSchool(doc),
      aliases: doc.aliases ?? [],
      sourceIds: doc.sourceKey === undefined ? [] : [doc.sourceKey],
      // Only a document written before 1.3 has none, until `school-search indexes` rewrites it
      // (SEARCH_FIELDS_VERSION 3, giving it the rewrite's time): the text and Atlas engines refuse
      // to serve before that; the in-process engine (memory) serves such a store, and then the
      // record says 1970 rather than a time nobody recorded.
      updatedAt: doc.updatedAt ?? new Date(0),
    };
  }

  count(): Promise<number> {
    return this.#causally((options) => guarded(() => this.#reads.schools.countDocuments({}, options)));
  }

  /**
   * A school by its id, as the catalog is read for serving (#session): a school this instance
   * has found in a search is there, whichever member answers, rather than a 404 from one that
   * has not yet applied the import that added it.
   */
  #findOne(id: string): Promise<SchoolDocument | null> {
    return this.#causally((options) =>
      guarded(() => this.#reads.schools.findOne({ _id: id }, { projection: WITHOUT_SEARCH_FIELDS, ...options })),
    );
  }

  /** The catalog's version, never older than one this store read before (#session). */
  catalogVersion(): Promise<string> {
    return this.#causally(({ session }) => this.#version(session));
  }

  async #version(session?: ClientSession): Promise<string> {
    const doc = await guarded(() =>
      this.#reads.catalog.findOne(
        { _id: 'schools' },
        { maxTimeMS: OPERATION_TIME_LIMIT_MS, ...(session ? { session } : {}) },
      ),
    );
    return String(doc?.version ?? 0);
  }

  /**
   * Without a transaction, a consistent read is one during which the version did not change:
   * an import bumps it after its writes, so a read that saw the same version before and after
   * saw every write of that version and of none later bumped. Otherwise it starts over (a few
   * times, then takes what it read: the engine checks the version again within a second and
   * reads once more). A read made while an import is still writing, before its bump, may hold
   * some of its schools under the old version: the bump, once seen, has them read again.
   *
   * The schools are handed over as the server sends them, a batch of the cursor at a time, the
   * next asked for when the consumer asks for it: nothing holds the catalog (at a million
   * schools it was ~480 MB of heap). So a change seen at the end is a `restart`: the consumer
   * drops what it took.
   */
  async *readCatalog(): AsyncGenerator<CatalogChunk> {
    // The three reads of an attempt may be answered by different secondaries: in one causally
    // consistent session each sees the store at least as late as the one before, so "the same
    // version before and after" still means what it means on the primary. Without it, a version
    // read on an up-to-date member and schools read on a lagging one would pass as consistent.
    // A session rather than one member for all three: the driver selects a server per
    // operation, and pinning one would need a connection of its own to each member. The
    // session's order holds across members only with majority reads, as CATALOG_READS asks.
    // It starts where this store's last catalog read ended (the version poll that asked for this
    // read): the catalog read is never older than the version that made the engine read it.
    const session = this.#session();
    try {
      for (let attempt = 1; ; attempt++) {
        const before = await this.#version(session);
        const cursor = this.#reads.schools.find(
          {},
          {
            projection: { ...WITHOUT_SEARCH_FIELDS, sortKey: 0 },
            batchSize: CATALOG_BATCH,
            maxTimeMS: OPERATION_TIME_LIMIT_MS,
            ...(session ? { session } : {}),
          },
        );
        try {
          // hasNext() fetches the server's next batch when the cursor has none left;
          // readBufferedDocuments() takes the batch it holds, whole.
          while (await guarded(() => cursor.hasNext())) {
            yield { kind: 'schools', schools: cursor.readBufferedDocuments().map(toCatalogSchool) };
          }
        } finally {
          await cursor.close();
        }
        const after = await this.#version(session);
        if (before === after || attempt === CATALOG_READ_ATTEMPTS) {
          yield { kind: 'version', version: before === after ? after : `${after}?` };
          return;
        }
        yield { kind: 'restart' };
      }
    } finally {
      await this.#saw(session);
    }
  }

  /**
   * Unordered bulk upserts, one batch at a time. Not all or nothing (a standalone server has no
   * multi-document transactions, and one transaction is capped at 16 MB): when it throws,
   * earlier batches stay written, and running the same import again completes it, because each
   * write replaces a school by its id with the whole document.
   */
  async upsertMany(schools: readonly SchoolDraft[], onProgress?: (done: number) => void): Promise<ImportCounts> {
    let inserted = 0;
    let updated = 0;
    let unchanged = 0;
    // One time for the whole import: its schools changed together (as on the embedded store).
    const now = new Date();
    for (let start = 0; start < schools.length; start += IMPORT_BATCH) {
      const batch = schools.slice(start, start + IMPORT_BATCH);
      const existing = await this.#existing(batch);
      // By id: a file naming one school twice ends with its later row, as on the embedded store
      // (an unordered bulk may apply two writes of one document in either order).
      const writes = new Map<string, AnyBulkWriteOperation<SchoolDocument>>();
      for (const draft of batch) {
        const before = existing.get(draft.id);
        // A draft without a source key (a canonical file) keeps the one an earlier import stored.
        const fresh = toDocument(draft, this.#fields, before?.sourceKey, now);
        const same = before !== undefined && sameSchool(toCatalogSchool(before), draft);
        // A school that did not change keeps its time of change (when it has one).
        const doc = same && before.updatedAt ? { ...fresh, updatedAt: before.updatedAt } : fresh;
        // Same school, but search fields derived by an earlier version of the search rules (a
        // change to normalisation bumps SEARCH_FIELDS_VERSION): rewritten with fields derived
        // again, and counted as updated, so that the catalog's version moves and the report
        // says the store changed.
        if (same && before.searchVersion === this.#fields.version) {
          unchanged++;
          continue;
        }
        if (before) updated++;
        else inserted++;
        // A school the batch's read did not find is inserted, not upserted: an insert is the
        // cheaper write on every server (FerretDB v1 scans the collection for each upsert, which
        // made a 3,000-school import take 46 s there).
        writes.set(draft.id, before || writes.has(draft.id) ? replace(doc) : { insertOne: { document: doc } });
        existing.set(draft.id, doc);
      }
      if (writes.size > 0) await this.#write([...writes.values()]);
      onProgress?.(start + batch.length);
    }
    if (schools.length === 0) onProgress?.(0);
    // After the writes: a catalog read that saw the old version before and after saw none of them.
    if (inserted + updated > 0) {
      await guarded(() => this.#catalog.updateOne({ _id: 'schools' }, { $inc: { version: 1 } }, { upsert: true }));
      const totals = this.totals;
      if (totals) {
        // The wing's totals of earlier versions are never asked for again (its port). Best effort:
        // a leftover is only space (its key holds its version), and the next import's bump deletes it.
        const version = await guarded(() => this.#catalog.findOne({ _id: 'schools' })).catch(() => null);
        if (version)
          await guarded(() => totals.deleteMany({ version: { $ne: String(version.version) } })).catch(() => undefined);
      }
    }
    return { inserted, updated, unchanged };
  }

  /** The same batches and comparison as upsertMany, without a write (nor the search fields a write derives). */
  async compareMany(schools: readonly SchoolDraft[]): Promise<ImportCounts> {
    const counts = { inserted: 0, updated: 0, unchanged: 0 };
    for (let start = 0; start < schools.length; start += IMPORT_BATCH) {
      const batch = schools.slice(start, start + IMPORT_BATCH);
      const existing: Map<string, CatalogSchoolShown> = await this.#existing(batch);
      for (const draft of batch) {
        const before = existing.get(draft.id);
        if (!before) counts.inserted++;
        else if (
          sameSchool(toCatalogSchool(before), draft) &&
          ('searchVersion' in before ? before.searchVersion === this.#fields.version : true)
        )
          counts.unchanged++;
        else counts.updated++;
        // A school listed twice is compared, the second time, with the first (as upsertMany would).
        const { id, ...fields } = draft;
        existing.set(id, { _id: id, ...fields, aliases: [...draft.aliases] });
      }
    }
    return counts;
  }

  /** The stored documents of a batch's schools, by id, without their search fields. */
  async #existing(batch: readonly SchoolDraft[]): Promise<Map<string, Omit<SchoolDocument, 'tokens' | 'search'>>> {
    const docs = await guarded(() =>
      this.#schools.find({ _id: { $in: batch.map((s) => s.id) } }, { projection: { tokens: 0, search: 0 } }).toArray(),
    );
    return new Map(docs.map((d) => [d._id, d]));
  }

  /**
   * One unordered bulk. An insert refused as a duplicate means another import wrote that school
   * since this batch read it: those are written again as replacements, so the file's row wins
   * as it would have with an upsert. Any other failure is thrown.
   */
  async #write(ops: AnyBulkWriteOperation<SchoolDocument>[]): Promise<void> {
    try {
      await guarded(() => this.#schools.bulkWrite(ops, { ordered: false }));
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError)) throw error;
      const failed = [error.writeErrors].flat();
      const retry = failed.map((e) => ops[e.index]);
      if (
        failed.length === 0 ||
        failed.some((e) => e.code !== 11000) ||
        retry.some((op) => !op || !('insertOne' in op))
      )
        throw error;
      await guarded(() =>
        this.#schools.bulkWrite(
          retry.map((op) => replace((op as { insertOne: { document: SchoolDocument } }).insertOne.document)),
          { ordered: false },
        ),
      );
    }
  }
}

/** Replaces the school by id with the whole document, inserting it when it is missing. */
function replace(doc: SchoolDocument): AnyBulkWriteOperation<SchoolDocument> {
  return { replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } };
}

/** A school's document as the adapter writes it, with the search wing's fields (exported for the tests' stand-ins of $text). */
export function toDocument(
  s: SchoolDraft,
  fields: SchoolSearchFields,
  storedSourceKey?: string,
  updatedAt: Date = new Date(),
): SchoolDocument {
  const sourceKey = s.sourceKey ?? storedSourceKey;
  return {
    _id: s.id,
    name: s.name,
    city: s.city,
    state: s.state,
    imageUrl: s.imageUrl,
    // Unknown ones are left out, not written as null (the driver writes undefined as null).
    ...knownLocation(s),
    ...knownKind(s),
    ...(sourceKey === undefined ? {} : { sourceKey }),
    updatedAt,
    aliases: [...s.aliases],
    prominence: s.prominence,
    sortKey: nameSortKey(s.name),
    ...fields.derive({ ...s, prominence: s.prominence }),
  };
}
