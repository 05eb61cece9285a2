// Opens (and creates) the embedded store: one SQLite file in WAL mode, so the API, the import
// command and the user command can all use it at once (readers never block; writers queue).
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import type { QuotaWarning } from './quota.store.ts';
import { SCHEMA } from './schema.ts';
import { StoreFileError } from './store-file.error.ts';
import { stampIdentity } from './store-identity.ts';

export interface SqliteOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** How long a write waits for another process's write lock before a 503 (default BUSY_BUDGET_MS, 5 s). */
  busyBudgetMs?: number;
  /** Where the store reports what it repaired by itself (a lost quota counters file); default: stderr. */
  warn?: QuotaWarning;
}

export function openDatabase({ path }: SqliteOptions): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let db: DatabaseSync;
  try {
    // timeout 0: a locked store fails at once and the connection retries without blocking the event loop (connection.ts).
    db = new DatabaseSync(path, { timeout: 0 });
  } catch (error) {
    throw new StoreUnavailableError(`Cannot open the embedded store at ${path}.`, { cause: error });
  }
  return db;
}

/** The tables every version of the store has had since its first (schema.ts). */
const FIRST_TABLES = ['schools', 'catalog', 'users', 'tokens', 'api_requests'];

/** An existing store file, opened without ever creating one (its checks are checkStoreFile's). */
export function openExisting(path: string): DatabaseSync {
  try {
    return reopenDatabase(path);
  } catch (error) {
    throw new StoreUnavailableError(`Cannot open the embedded store at ${path}.`, { cause: error });
  }
}

/**
 * Refuses a file that is not a store: empty (a 0-byte file, or a database with no table), not a
 * database, or a store missing one of its tables. A store of an older version is brought up to
 * date by migrate() instead. The caller closes `db`.
 */
export function checkStoreFile(db: DatabaseSync, path: string): void {
  let tables: Set<string>;
  let version: number;
  try {
    version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
    tables = new Set(rows.map((row) => row.name));
  } catch (error) {
    const code = (error as { errcode?: number }).errcode;
    if (code !== undefined && [11, 26].includes(code & 0xff))
      throw StoreFileError.notAStore(path, 'is not an SQLite database (or is damaged)');
    throw error;
  }
  const fail = (what: string) => {
    throw StoreFileError.notAStore(path, what);
  };
  if (tables.size === 0 && version === 0) fail('is empty');
  if (version === 0) fail('is an SQLite database but not a school-search store');
  const missing = FIRST_TABLES.filter((table) => !tables.has(table));
  if (missing.length > 0) fail(`is missing its tables ${missing.join(', ')}`);
}

/** SQLite's quick_check of the file open in `db`: 'ok', or the first problem found. */
export function quickCheck(db: DatabaseSync): string {
  try {
    const rows = db.prepare('PRAGMA quick_check(1)').all() as Array<{ quick_check: string }>;
    return rows[0]?.quick_check ?? 'no answer';
  } catch (error) {
    if (error instanceof Error) return error.message;
    throw error;
  }
}

/**
 * Makes a new store at `path`, where there is no file: built in a file of its own beside it and
 * linked into place only when complete, so that no process ever opens a half-made store, and
 * two processes starting at once on a new path make one store (the other's link fails; it opens
 * the one there). It is given its identity (store-identity.ts) before it is linked. `retry`
 * waits out a lock (the WAL switch). The caller has refused files of a lost store beside the path
 * (store-files.ts).
 */
export async function createStoreFile(path: string, retry: (work: () => void) => Promise<void>): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const building = `${path}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  const db = new DatabaseSync(building, { timeout: 0 });
  try {
    await retry(() => configure(db));
    await retry(() => migrate(db));
    await retry(() => void stampIdentity(db));
  } finally {
    // Closing checkpoints the WAL into the file and deletes it: the file is complete on its own.
    db.close();
  }
  try {
    linkSync(building, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(building, { force: true });
    rmSync(`${building}-wal`, { force: true });
    rmSync(`${building}-shm`, { force: true });
  }
}

/**
 * Opens the store file again after it went away: never creates one. A missing file is an error
 * (SQLITE_CANTOPEN), not a fresh empty store that would silently lose every account and record.
 */
export function reopenDatabase(path: string): DatabaseSync {
  const url = pathToFileURL(path);
  url.searchParams.set('mode', 'rw');
  return new DatabaseSync(url, { timeout: 0 });
}

/**
 * A read-only connection to the store file, for one long read that must see a single version of
 * the store (a read transaction) while the main connection goes on serving.
 */
export function openReader(path: string): DatabaseSync {
  const url = pathToFileURL(path);
  url.searchParams.set('mode', 'ro');
  return new DatabaseSync(url, { readOnly: true, timeout: 0 });
}

/** Per-connection settings; switching a new file to WAL takes a lock, so callers retry it. */
export function configure(db: DatabaseSync): void {
  // synchronous=FULL: a commit is on disk before the call returns, so a request record that was
  // acknowledged survives a crash or power loss (measured: ~0.3 ms per commit here).
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
}

/** Brings the schema up to date. Callers retry it (connection.ts) when another process holds the lock. */
export function migrate(db: DatabaseSync): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  if (row.user_version >= SCHEMA.length) return;
  // BEGIN IMMEDIATE takes the write lock first, so two processes starting on a new file at the
  // same moment do not both try to create the tables.
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    for (let version = current; version < SCHEMA.length; version++) db.exec(SCHEMA[version]!);
    db.exec(`PRAGMA user_version = ${SCHEMA.length}`);
    db.exec('COMMIT');
  } catch (error) {
    // A failed COMMIT may already have ended the transaction: a ROLLBACK then would hide the error.
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Runs `work` in one transaction: all of it is written, or none. Inside a transaction already
 * (every write of a connection is one: Connection.write), `work` is part of it.
 */
export function transaction<T>(db: DatabaseSync, work: () => T): T {
  if (db.isTransaction) return work();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Runs reads on one snapshot. A search takes several statements; in WAL mode a deferred
 * transaction pins one version of the data, so an import committing in between (which renumbers
 * the search index) cannot mix two catalogs into one answer.
 */
export function snapshot<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN');
  try {
    return work();
  } finally {
    if (db.isTransaction) db.exec('COMMIT');
  }
}
