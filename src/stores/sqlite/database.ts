// Opens (and creates) the embedded store: one SQLite file in WAL mode, so the API, the import
// command and the user command can all use it at once (readers never block; writers queue).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { StoreUnavailableError } from '../../domain/errors.ts';
import { SCHEMA } from './schema.ts';

export interface SqliteOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** How long a write waits for another process's write lock before a 503 (default BUSY_BUDGET_MS, 5 s). */
  busyBudgetMs?: number;
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

/** Runs `work` in one transaction: all of it is written, or none. */
export function transaction<T>(db: DatabaseSync, work: () => T): T {
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
