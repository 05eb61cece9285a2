// Each store file carries an identity of its own in its header: a random, non-zero
// PRAGMA application_id (bytes 68–71 of page 1), given when the file is made and to every copy
// the command line makes (backup, restore). Every commit writes page 1 with it (Connection.write),
// so a log beside a store file tells, without SQLite, whether it was written by that file (store-files.ts):
// a backup moved in over the log of the store it replaced is refused instead of having that log
// copied into it. Stores made before identities existed get one at their next open.
import { randomInt } from 'node:crypto';
import { statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';

/** What the header of a store file says, as the file itself holds it. */
export interface FileHeader {
  readonly pageSize: number;
  /** PRAGMA application_id: 0 when the file was never given an identity. */
  readonly identity: number;
}

/** A new identity: a random non-zero 32-bit value (as SQLite reads it: signed). */
export function newIdentity(): number {
  return randomInt(1, 2 ** 32) | 0;
}

export function identityOf(db: DatabaseSync): number {
  return (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id;
}

/** Gives a store without an identity one (two processes at once: the first one's stays). Returns whether it did. */
export function stampIdentity(db: DatabaseSync): boolean {
  if (identityOf(db) !== 0) return false;
  db.exec('BEGIN IMMEDIATE');
  try {
    const stamped = identityOf(db) === 0;
    if (stamped) db.exec(`PRAGMA application_id = ${newIdentity()}`);
    db.exec('COMMIT');
    return stamped;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** Gives the file open in `db` a new identity (a copy that must not pass for the file it was copied from). */
export function renewIdentity(db: DatabaseSync): void {
  db.exec(`PRAGMA application_id = ${newIdentity()}`);
}

/**
 * The header of the file at `path` as the file itself holds it, not as a log beside it would make
 * it: read by SQLite with immutable=1, which reads the file alone, never its log, and takes no
 * lock. Not with a file descriptor of this process's own: closing one would drop every POSIX lock
 * the process's connections hold on the file (fcntl's rule), so that other processes would take
 * the store for unused; SQLite's own reads keep them. undefined for an empty file or one that is
 * not a database.
 */
export function headerOf(path: string): FileHeader | undefined {
  if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) < 100) return undefined;
  const url = pathToFileURL(path);
  url.searchParams.set('mode', 'ro');
  url.searchParams.set('immutable', '1');
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(url, { readOnly: true, timeout: 0 });
  } catch {
    return undefined;
  }
  try {
    const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    return { pageSize, identity: identityOf(db) >>> 0 };
  } catch {
    // Not a database (SQLite's NOTADB): no header to tell by.
    return undefined;
  } finally {
    db.close();
  }
}
