import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { CatalogSchool } from '../../domain/catalog/catalog.ports.ts';
import type {
  CatalogChanges,
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
import type { Connection } from './connection.ts';
import { transaction } from './database.ts';
import { translate } from './errors.ts';

interface SchoolRow {
  id: string;
  name: string;
  city: string;
  state: string;
  image_url: string | null;
  address: string | null;
  postal_code: string | null;
  latitude: number | null;
  longitude: number | null;
  level: string | null;
  lowest_grade: string | null;
  highest_grade: string | null;
  type: string | null;
  /** Joined by TAG_SEPARATOR; NULL when none. */
  tags: string | null;
}

const TAG_SEPARATOR = '|';

interface RecordRow extends SchoolRow {
  aliases: string;
  source_key: string | null;
  updated_at: string;
}

interface CatalogRow extends SchoolRow {
  rowid: number;
  aliases: string;
  prominence: number;
}

/** Schools read per step when the catalog is loaded; between steps the event loop serves requests. */
const CATALOG_BATCH = 2000;
/**
 * SQLite's page cache during a large upsert, KiB (its default is 2 MiB). The ids' index takes
 * its rows in random order: with 2 MiB its pages went back and forth to the file, and the 149,311
 * rows of the seed took 1.2-1.4 s of CPU to write instead of 0.8-0.9 s. Put back afterwards.
 */
const BULK_CACHE_KIB = 32 * 1024;
const BULK_ROWS = 10_000;

const VERSION = 'SELECT version, stamp, changes_from FROM catalog WHERE id = 1';
// A new random stamp with every bump: the version string (catalogVersion) names one catalog in
// every history of the store, not a count that a restored backup would count again.
const BUMP_VERSION = 'UPDATE catalog SET version = version + 1, stamp = lower(hex(randomblob(6))) WHERE id = 1';
const SCHOOL_COLUMNS =
  'id, name, city, state, image_url, address, postal_code, latitude, longitude, level, lowest_grade, highest_grade, type, tags';
const CATALOG_PAGE = `SELECT rowid, ${SCHOOL_COLUMNS}, aliases, prominence FROM schools WHERE rowid > ? ORDER BY rowid LIMIT ?`;
const CHANGED_COUNT = 'SELECT count(*) AS n FROM (SELECT 1 FROM schools WHERE changed_in > ? LIMIT ?)';
const CHANGED = `SELECT rowid, ${SCHOOL_COLUMNS}, aliases, prominence FROM schools WHERE changed_in > ? ORDER BY rowid`;
const BY_ID = `SELECT ${SCHOOL_COLUMNS} FROM schools WHERE id = ?`;
const RECORD_BY_ID = `SELECT ${SCHOOL_COLUMNS}, aliases, source_key, updated_at FROM schools WHERE id = ?`;
const COUNT_ALL = 'SELECT COUNT(*) AS n FROM schools';
const FIND = `SELECT rowid, ${SCHOOL_COLUMNS}, aliases, prominence FROM schools WHERE id = ?`;
// A school already stored is left alone here (no change): upsertMany then compares and updates it.
// Inserting first spares a new catalog one lookup per school.
const INSERT =
  'INSERT INTO schools (id, name, city, state, image_url, address, postal_code, latitude, longitude, level, lowest_grade, highest_grade, type, tags, aliases, prominence, source_key, updated_at, changed_in) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING';
// A draft without a source key (a canonical file) keeps the key an earlier import stored.
const UPDATE =
  'UPDATE schools SET name = ?, city = ?, state = ?, image_url = ?, address = ?, postal_code = ?, latitude = ?, longitude = ?, level = ?, lowest_grade = ?, highest_grade = ?, type = ?, tags = ?, aliases = ?, prominence = ?, source_key = coalesce(?, source_key), updated_at = ?, changed_in = ? WHERE rowid = ?';

export class SqliteSchoolStore implements SchoolStore {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  findById(id: string): Promise<School | null> {
    const c = this.#connection;
    return c.read(() => {
      const row = c.statement(BY_ID).get(id) as SchoolRow | undefined;
      return row ? toSchool(row) : null;
    });
  }

  findRecord(id: string): Promise<SchoolRecord | null> {
    const c = this.#connection;
    return c.read(() => {
      const row = c.statement(RECORD_BY_ID).get(id) as RecordRow | undefined;
      return row
        ? {
            ...toSchool(row),
            aliases: JSON.parse(row.aliases) as string[],
            sourceIds: row.source_key === null ? [] : [row.source_key],
            updatedAt: new Date(row.updated_at),
          }
        : null;
    });
  }

  count(): Promise<number> {
    const c = this.#connection;
    return c.read(() => (c.statement(COUNT_ALL).get() as { n: number }).n);
  }

  catalogVersion(): Promise<string> {
    const c = this.#connection;
    // The connection's generation changes when the file at the path was replaced: its version
    // numbers are another store's.
    return c.read(() => versionString(c.generation, c.statement(VERSION).get() as unknown as VersionRow));
  }

  /**
   * The schools changed since `since` (a version this store gave), at most `limit` of them, with
   * the version they make the catalog: in one read transaction, indexed by the version that last
   * changed each school (changed_in). undefined when it cannot tell: a version of another file or
   * of before the changes were kept, or more changes than `limit`.
   */
  async catalogChanges(since: string, limit: number): Promise<CatalogChanges | undefined> {
    const c = this.#connection;
    const [generation, number] = since.split(':');
    if (Number(generation) !== c.generation || !/^\d+$/.test(number ?? '')) return undefined;
    const from = Number(number);
    return c.read(() => {
      const inTransaction = c.db.isTransaction;
      if (!inTransaction) c.db.exec('BEGIN');
      try {
        const row = c.statement(VERSION).get() as unknown as VersionRow;
        if (from < row.changes_from || from > row.version) return undefined;
        const version = versionString(c.generation, row);
        if (from === row.version) return { version, schools: [] };
        const n = (c.statement(CHANGED_COUNT).get(from, limit + 1) as { n: number }).n;
        if (n > limit) return undefined;
        const rows = c.statement(CHANGED).all(from) as unknown as CatalogRow[];
        return { version, schools: rows.map(toCatalogSchool) };
      } finally {
        if (!inTransaction) c.db.exec('COMMIT');
      }
    });
  }

  /**
   * Read on a connection of its own, in one read transaction (WAL: an import committing
   * meanwhile is not seen), a batch at a time, each read when the consumer asks for it, with
   * the event loop free in between.
   */
  async *readCatalog(): AsyncGenerator<CatalogChunk> {
    const c = this.#connection;
    if (c.inMemory) {
      // An in-memory store has one connection: read whole (tests, small catalogs), handed over in batches.
      const { version, rows } = await c.read(() => ({
        version: versionString(c.generation, c.statement(VERSION).get() as unknown as VersionRow),
        rows: c.statement(CATALOG_PAGE).all(-1, Number.MAX_SAFE_INTEGER) as unknown as CatalogRow[],
      }));
      for (let start = 0; start < rows.length; start += CATALOG_BATCH)
        yield { kind: 'schools', schools: rows.slice(start, start + CATALOG_BATCH).map(toCatalogSchool) };
      yield { kind: 'version', version };
      return;
    }
    const generation = c.generation;
    const reader = c.openReader();
    try {
      const { version, page } = translated(() => {
        reader.exec('BEGIN');
        return {
          version: reader.prepare(VERSION).get() as unknown as VersionRow,
          page: reader.prepare(CATALOG_PAGE),
        };
      });
      for (let after = -1; ; ) {
        const rows = translated(() => page.all(after, CATALOG_BATCH) as unknown as CatalogRow[]);
        if (rows.length === 0) break;
        after = rows[rows.length - 1]!.rowid;
        yield { kind: 'schools', schools: rows.map(toCatalogSchool) };
        await yieldToRequests();
      }
      yield { kind: 'version', version: versionString(generation, version) };
    } finally {
      if (reader.isTransaction) reader.exec('COMMIT');
      reader.close();
    }
  }

  upsertMany(schools: readonly SchoolDraft[], onProgress?: (done: number) => void): Promise<ImportCounts> {
    const c = this.#connection;
    return c.write(() => {
      const find = c.statement(FIND);
      const insert = c.statement(INSERT);
      const update = c.statement(UPDATE);
      let inserted = 0;
      let updated = 0;
      let unchanged = 0;
      // One time for the whole import: its schools changed together.
      const now = new Date().toISOString();
      let changedIn = 0;
      const cacheSize = (c.db.prepare('PRAGMA cache_size').get() as { cache_size: number }).cache_size;
      if (schools.length >= BULK_ROWS) c.db.exec(`PRAGMA cache_size = -${BULK_CACHE_KIB}`);
      try {
        transaction(c.db, () => {
          // The version this import makes, should it change anything (under the write lock: no other import bumps it meanwhile).
          changedIn = (c.statement(VERSION).get() as unknown as VersionRow).version + 1;
          schools.forEach((s, i) => {
            if (onProgress && i > 0 && i % 500 === 0) onProgress(i);
            const values = [
              s.name,
              s.city,
              s.state,
              s.imageUrl,
              s.address ?? null,
              s.postalCode ?? null,
              s.latitude ?? null,
              s.longitude ?? null,
              s.level ?? null,
              s.lowestGrade ?? null,
              s.highestGrade ?? null,
              s.type ?? null,
              s.tags?.join(TAG_SEPARATOR) ?? null,
              JSON.stringify(s.aliases),
              s.prominence,
              s.sourceKey ?? null,
              now,
              changedIn,
            ];
            if (insert.run(s.id, ...values).changes === 1) {
              inserted++;
              return;
            }
            const existing = find.get(s.id) as unknown as CatalogRow;
            if (sameSchool(toCatalogSchool(existing), s)) {
              unchanged++;
            } else {
              update.run(...values, existing.rowid);
              updated++;
            }
          });
          // In the same transaction: a reader sees the new version exactly when it sees the new schools.
          if (inserted + updated > 0) c.statement(BUMP_VERSION).run();
        });
      } finally {
        // A smaller cache lets go of the pages beyond it: the server's memory after an import.
        if (schools.length >= BULK_ROWS) c.db.exec(`PRAGMA cache_size = ${cacheSize}`);
      }
      onProgress?.(schools.length);
      return { inserted, updated, unchanged };
    });
  }

  compareMany(schools: readonly SchoolDraft[]): Promise<ImportCounts> {
    const c = this.#connection;
    return c.read(() => {
      const find = c.statement(FIND);
      const counts = { inserted: 0, updated: 0, unchanged: 0 };
      // A school listed twice is compared the second time with what its first listing would have written.
      const written = new Map<string, SchoolDraft>();
      for (const s of schools) {
        const before = written.get(s.id);
        const existing = before ? undefined : (find.get(s.id) as CatalogRow | undefined);
        if (!before && !existing) counts.inserted++;
        else if (before ? JSON.stringify(before) === JSON.stringify(s) : sameSchool(toCatalogSchool(existing!), s))
          counts.unchanged++;
        else counts.updated++;
        written.set(s.id, s);
      }
      return counts;
    });
  }
}

interface VersionRow {
  version: number;
  stamp: string;
  changes_from: number;
}

/** The version string of a catalog: the connection's generation (another file at the path: other numbers), the count, the bump's stamp. */
function versionString(generation: number, row: VersionRow): string {
  return `${generation}:${row.version}:${row.stamp}`;
}

function toLocation(row: SchoolRow) {
  return knownLocation({
    address: row.address,
    postalCode: row.postal_code,
    latitude: row.latitude,
    longitude: row.longitude,
  });
}

function toKind(row: SchoolRow) {
  return knownKind({
    level: row.level,
    lowestGrade: row.lowest_grade,
    highestGrade: row.highest_grade,
    type: row.type,
    tags: row.tags?.split(TAG_SEPARATOR),
  });
}

function toSchool(row: SchoolRow): School {
  return {
    id: row.id,
    name: row.name,
    city: row.city,
    state: row.state,
    imageUrl: row.image_url,
    ...toLocation(row),
    ...toKind(row),
  };
}

/** The store's own errors as the domain's (errors.ts): the read's statements, not what the consumer does between batches. */
function translated<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw translate(error);
  }
}

function toCatalogSchool(row: CatalogRow): CatalogSchool {
  return { ...toSchool(row), aliases: JSON.parse(row.aliases) as string[], prominence: row.prominence };
}
