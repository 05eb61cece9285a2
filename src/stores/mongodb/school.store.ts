// The catalog's store on MongoDB: the schools as imports write them and as the API and the
// in-process index read them. Each school's document also carries the fields of the catalog
// extension the composition root hands it (the search wing's: src/mongodb-shared/catalog.port.ts), which
// it writes with the school, indexes and cleans up without knowing what they are. Its reads for
// serving, and the wing's pipelines, go through one ServedCatalog (src/mongodb-shared/served-catalog.ts):
// one causal order per instance.
import { MongoBulkWriteError, type AnyBulkWriteOperation, type ClientSession, type Collection } from 'mongodb';
import type {
  CatalogChanges,
  CatalogChunk,
  ImportCounts,
  School,
  SchoolDraft,
  SchoolRecord,
  SchoolStore,
} from '../../domain/catalog/catalog.ports.ts';
import { sameSchool } from '../../domain/catalog/same-school.ts';
import type { CatalogExtension, PerVersionDocument } from '../../mongodb-shared/catalog.port.ts';
import { guarded } from '../../mongodb-shared/errors.ts';
import {
  CATALOG_SCHOOL_FIELDS,
  toCatalogSchool,
  toDocument,
  toSchool,
  type CatalogDocument,
  type CatalogSchoolShown,
  type SchoolDocument,
  type SchoolFields,
} from '../../mongodb-shared/school-document.ts';
import { ServedCatalog, type CatalogReads } from '../../mongodb-shared/served-catalog.ts';
import { CatalogTickets, floorSince } from './catalog-tickets.ts';
import { OPERATION_TIME_LIMIT_MS } from './limits.ts';

/** Schools per round trip of an import: small enough for one bulk command, large enough to be quick. */
export const IMPORT_BATCH = 1000;

/** What a school's record reads of its document: its own fields, never the extension's (which can be most of a document). */
const RECORD_FIELDS = { ...CATALOG_SCHOOL_FIELDS, sourceKey: 1, updatedAt: 1 } as const;

/** Schools read per round trip when the catalog is loaded. */
const CATALOG_BATCH = 2000;
/**
 * Schools per query when the catalog is loaded (ten round trips): a cursor's maxTimeMS counts
 * every getMore of it (the server's time, cumulative), so one cursor over the whole catalog
 * would have 10 s for all of it, on a cold or lagging member and at a million schools too;
 * each page is a query of its own, with its own 10 s (issue 43, M4).
 */
export const CATALOG_PAGE = 20_000;
/** How often readCatalog starts over when an import changed the catalog while it read. */
const CATALOG_READ_ATTEMPTS = 5;

/** A stored school as an import compares it: what decides whether it changed, and what a write keeps. */
type Stored = CatalogSchoolShown & Pick<SchoolFields, 'sourceKey' | 'updatedAt'>;

/**
 * The catalog's store. `extension`'s fields are written with every school (and a school whose
 * stored ones another version derived is written again when imported); its per-version documents
 * are deleted once the catalog's version has moved past theirs. `catalog` is the catalog as it is
 * read for serving, which the store's own reads and the search wing's pipelines share.
 */
export class MongoSchoolStore<Fields extends object = object> implements SchoolStore {
  readonly #schools: Collection<SchoolDocument>;
  readonly #catalog: Collection<CatalogDocument>;
  readonly #extension: CatalogExtension<Fields>;
  /** The projection of what an import reads of a stored school: its fields and the extension's stamp. */
  readonly #storedFields: Readonly<Record<string, 1>>;
  readonly #catalogPage: number;
  readonly #tickets: CatalogTickets;
  /** The catalog as it is read for serving, in this instance's causal order: the search wing's SchoolCatalog. */
  readonly catalog: ServedCatalog<Fields>;

  constructor(
    schools: Collection<SchoolDocument<Fields>>,
    catalog: Collection<CatalogDocument>,
    extension: CatalogExtension<Fields>,
    reads?: CatalogReads,
    perVersion?: <T extends PerVersionDocument>() => Collection<T>,
    /** Schools per query of readCatalog (CATALOG_PAGE; tests make it small). */
    catalogPage = CATALOG_PAGE,
  ) {
    this.#catalogPage = catalogPage;
    // The store's own view of the collection: its fields, the extension's left unnamed (the driver's
    // Collection is invariant in its schema, so forgetting them takes a cast).
    this.#schools = schools as unknown as Collection<SchoolDocument>;
    this.#catalog = catalog;
    this.#tickets = new CatalogTickets(catalog);
    this.#extension = extension;
    this.#storedFields = {
      ...RECORD_FIELDS,
      ...Object.fromEntries(Object.keys(extension.stamp).map((field) => [field, 1] as const)),
    };
    this.catalog = new ServedCatalog({
      primary: schools,
      reads: reads ?? { schools: this.#schools, catalog },
      operationTimeLimitMs: OPERATION_TIME_LIMIT_MS,
      perVersion,
    });
  }

  /** Whether a stored document's extension fields are of the extension's version (its stamp). */
  #current(doc: object): boolean {
    return Object.entries(this.#extension.stamp).every(
      ([field, value]) => (doc as Record<string, unknown>)[field] === value,
    );
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
      // Only a document written before 1.3 has none, until `school-search indexes` rewrites its
      // extension's fields (giving it the rewrite's time: rewrittenOwnFields); the text and Atlas
      // engines refuse to serve before that; the in-process engine (memory) serves such a store,
      // and then the record says 1970 rather than a time nobody recorded.
      updatedAt: doc.updatedAt ?? new Date(0),
    };
  }

  count(): Promise<number> {
    return this.catalog.causally((options) =>
      guarded(() => this.catalog.reads.schools.countDocuments({}, { ...options, maxTimeMS: OPERATION_TIME_LIMIT_MS })),
    );
  }

  /**
   * A school by its id, as the catalog is read for serving (in its causal order): a school this
   * instance has found in a search is there, whichever member answers, rather than a 404 from one
   * that has not yet applied the import that added it. maxTimeMS bounds that wait too (a member
   * that cannot catch up answers MaxTimeMSExpired, a 503), instead of the socket timeout and a
   * retry while the wait runs on (issue 43, M1).
   */
  async #findOne(id: string): Promise<Stored | null> {
    const served = await this.catalog.causally((options) =>
      guarded(() =>
        this.catalog.reads.schools.findOne<Stored>(
          { _id: id },
          { projection: RECORD_FIELDS, ...options, maxTimeMS: OPERATION_TIME_LIMIT_MS },
        ),
      ),
    );
    if (served || !this.catalog.reads.session) return served;
    // Not there on the member that answered: on a replica set, the primary says. The session
    // holds a member back only to the version this instance has read, and a search's pipeline
    // may have run on a member that applied a later import before the version poll saw it (the
    // school it found, then read on a member behind it, would be a 404). One point read by id,
    // and only for an id that is not in the catalog (or not yet on every member).
    return guarded(() =>
      this.#schools.findOne<Stored>(
        { _id: id },
        { projection: RECORD_FIELDS, readConcern: { level: 'majority' }, maxTimeMS: OPERATION_TIME_LIMIT_MS },
      ),
    );
  }

  /** The catalog's version, never older than one this instance read before. */
  catalogVersion(): Promise<string> {
    return this.catalog.catalogVersion();
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
   * next asked for when the consumer asks for it: nothing holds the catalog, whose size grows
   * with it (measured at a million schools: docs/performance.md, "What MongoDB adds"). So a
   * change seen at the end is a `restart`: the consumer drops what it took.
   */
  async *readCatalog(): AsyncGenerator<CatalogChunk> {
    // The three reads of an attempt may be answered by different secondaries: in one causally
    // consistent session each sees the store at least as late as the one before, so "the same
    // version before and after" still means what it means on the primary. Without it, a version
    // read on an up-to-date member and schools read on a lagging one would pass as consistent.
    // A session rather than one member for all three: the driver selects a server per
    // operation, and pinning one would need a connection of its own to each member. The
    // session's order holds across members only with majority reads, as CATALOG_READS asks
    // (store.ts). It starts where this instance's last catalog read ended (the version poll that
    // asked for this read): the catalog read is never older than the version that made the
    // engine read it.
    const session = this.catalog.session();
    try {
      for (let attempt = 1; ; attempt++) {
        const before = await this.catalog.version(session);
        yield* this.#pages(session);
        const after = await this.catalog.version(session);
        if (before === after || attempt === CATALOG_READ_ATTEMPTS) {
          yield { kind: 'version', version: before === after ? after : `${after}?` };
          return;
        }
        yield { kind: 'restart' };
      }
    } finally {
      await this.catalog.end(session);
    }
  }

  /**
   * The schools changed since the catalog was read at `since`, as they are now, at most `limit`,
   * and the version they bring it to (catalog-tickets.ts: those stamped at or above its floor),
   * read as readCatalog reads: in one causal session, the version the same before and after.
   * undefined when it cannot be told (floorSince), when more than `limit` changed, or when
   * imports kept changing the catalog through every attempt.
   */
  async catalogChanges(since: string, limit: number): Promise<CatalogChanges | undefined> {
    if (!/^\d+$/.test(since)) return undefined;
    const session = this.catalog.session();
    try {
      for (let attempt = 1; attempt <= CATALOG_READ_ATTEMPTS; attempt++) {
        const doc = await this.catalog.versionDocument(session);
        const floor = floorSince(doc, Number(since));
        if (floor === undefined) return undefined;
        const version = String(doc?.version ?? 0);
        if (floor === Number.POSITIVE_INFINITY) return { version, schools: [] };
        const changed = await guarded(() =>
          this.catalog.reads.schools
            .find<CatalogSchoolShown>(
              { changedIn: { $gte: floor } },
              {
                projection: CATALOG_SCHOOL_FIELDS,
                limit: limit + 1,
                maxTimeMS: OPERATION_TIME_LIMIT_MS,
                ...(session ? { session } : {}),
              },
            )
            .toArray(),
        );
        if (changed.length > limit) return undefined;
        if ((await this.catalog.version(session)) === version)
          return { version, schools: changed.map(toCatalogSchool) };
      }
      return undefined;
    } finally {
      await this.catalog.end(session);
    }
  }

  /**
   * Every school, a page (catalogPage) at a time in the order of their ids, each page a query
   * with its own maxTimeMS, each handed over a server batch at a time.
   */
  async *#pages(session: ClientSession | undefined): AsyncGenerator<CatalogChunk> {
    for (let after: string | undefined; ; ) {
      const cursor = this.catalog.reads.schools.find<CatalogSchoolShown>(
        after === undefined ? {} : { _id: { $gt: after } },
        {
          projection: CATALOG_SCHOOL_FIELDS,
          sort: { _id: 1 },
          limit: this.#catalogPage,
          batchSize: CATALOG_BATCH,
          maxTimeMS: OPERATION_TIME_LIMIT_MS,
          ...(session ? { session } : {}),
        },
      );
      let read = 0;
      try {
        // hasNext() fetches the server's next batch when the cursor has none left;
        // readBufferedDocuments() takes the batch it holds, whole.
        while (await guarded(() => cursor.hasNext())) {
          const batch = cursor.readBufferedDocuments();
          read += batch.length;
          after = batch.at(-1)?._id ?? after;
          yield { kind: 'schools', schools: batch.map(toCatalogSchool) };
        }
      } finally {
        await cursor.close();
      }
      if (read < this.#catalogPage) return;
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
    // Taken before the first write, given back after the last (catalog-tickets.ts): what the
    // changes since a version are told by. A failed import keeps it until it lapses.
    let ticket: number | undefined;
    for (let start = 0; start < schools.length; start += IMPORT_BATCH) {
      const batch = schools.slice(start, start + IMPORT_BATCH);
      const existing = await this.#existing(batch);
      // By id: a file naming one school twice ends with its later row, as on the embedded store
      // (an unordered bulk may apply two writes of one document in either order).
      const writes = new Map<string, AnyBulkWriteOperation<SchoolDocument>>();
      for (const draft of batch) {
        const before = existing.get(draft.id);
        // A draft without a source key (a canonical file) keeps the one an earlier import stored.
        const fresh = toDocument(draft, this.#extension, before?.sourceKey, now);
        const same = before !== undefined && sameSchool(toCatalogSchool(before), draft);
        // A school that did not change keeps its time of change (when it has one).
        const doc = same && before.updatedAt ? { ...fresh, updatedAt: before.updatedAt } : fresh;
        // Same school, but extension fields derived by another version of the extension (the
        // search wing's, after a change to the normalisation): rewritten with fields derived
        // again, and counted as updated, so that the catalog's version moves and the report
        // says the store changed.
        if (same && this.#current(before)) {
          unchanged++;
          continue;
        }
        if (before) updated++;
        else inserted++;
        ticket ??= await this.#tickets.take();
        // A school the batch's read did not find is inserted, not upserted: an insert is the
        // cheaper write on every server (FerretDB v1 scans the collection for each upsert: the
        // cost it measured is in docs/stores.md, "No multi-document transactions").
        const written = { ...doc, changedIn: ticket };
        writes.set(draft.id, before || writes.has(draft.id) ? replace(written) : { insertOne: { document: written } });
        existing.set(draft.id, written);
      }
      if (writes.size > 0) await this.#write([...writes.values()]);
      onProgress?.(start + batch.length);
    }
    if (schools.length === 0) onProgress?.(0);
    // After the writes: a catalog read that saw the old version before and after saw none of them.
    if (ticket !== undefined) {
      const version = await this.#tickets.giveBack(ticket);
      const perVersion = this.catalog.perVersion?.<PerVersionDocument>();
      // The extension's documents of earlier versions are never asked for again (its port).
      // Best effort: a leftover is only space, and the next import's bump deletes it.
      if (perVersion)
        await guarded(() => perVersion.deleteMany({ version: { $ne: String(version) } })).catch(() => undefined);
    }
    return { inserted, updated, unchanged };
  }

  /** The same batches and comparison as upsertMany, without a write (nor the extension's fields a write derives). */
  async compareMany(schools: readonly SchoolDraft[]): Promise<ImportCounts> {
    const counts = { inserted: 0, updated: 0, unchanged: 0 };
    for (let start = 0; start < schools.length; start += IMPORT_BATCH) {
      const batch = schools.slice(start, start + IMPORT_BATCH);
      const existing = await this.#existing(batch);
      for (const draft of batch) {
        const before = existing.get(draft.id);
        if (!before) counts.inserted++;
        else if (sameSchool(toCatalogSchool(before), draft) && this.#current(before)) counts.unchanged++;
        else counts.updated++;
        // A school listed twice is compared, the second time, with the first (as upsertMany would,
        // having written it with current extension fields).
        const { id, ...fields } = draft;
        existing.set(id, { _id: id, ...fields, aliases: [...draft.aliases], ...this.#extension.stamp });
      }
    }
    return counts;
  }

  /** The stored documents of a batch's schools, by id: the store's fields and the extension's stamp. */
  async #existing(batch: readonly SchoolDraft[]): Promise<Map<string, Stored>> {
    const docs = await guarded(() =>
      this.#schools
        .find<Stored>({ _id: { $in: batch.map((s) => s.id) } }, { projection: this.#storedFields })
        .toArray(),
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
