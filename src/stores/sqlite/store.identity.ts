// Each store file carries an identity of its own in its header: a random, non-zero
// PRAGMA application_id (bytes 68–71 of page 1), given when the file is made and to every copy
// the command line makes (backup, restore). Every commit writes page 1 with it (Connection.write),
// so a log beside a store file tells, without SQLite, whether it was written by that file:
// a backup moved in over the log of the store it replaced is refused instead of having that log
// copied into it. Stores made before identities existed get one at their next open.
import { randomInt } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';

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
