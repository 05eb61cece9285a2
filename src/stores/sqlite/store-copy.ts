// A copy of a store made a store of its own (`school-search backup` and `restore`): checked,
// given an identity of its own, whole in one file and on disk before it is put anywhere.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { checkStoreFile, quickCheck } from './database.ts';
import { StoreFileError } from './store-file.error.ts';
import { renewIdentity } from './store-identity.ts';

export interface StoreCounts {
  readonly schools: number;
  readonly users: number;
  readonly records: number;
}

/**
 * Makes the copy at `file` (of the store at `from`) a store of its own: checks it is a sound
 * store, gives it a new identity, folds its log into it and syncs it. Its counts.
 */
export function sealCopy(file: string, from: string): StoreCounts {
  const db = new DatabaseSync(file, { timeout: 0 });
  let counts: StoreCounts;
  try {
    try {
      checkStoreFile(db, file);
    } catch (error) {
      if (error instanceof StoreFileError)
        throw StoreFileError.refused(
          `${from} is not a sound school-search store (it ${error.finding ?? 'is damaged'}).`,
        );
      throw error;
    }
    const check = quickCheck(db);
    if (check !== 'ok')
      throw StoreFileError.refused(`${from} is not a sound school-search store (SQLite's quick_check: "${check}").`);
    renewIdentity(db);
    counts = countsOf(db);
  } finally {
    // Closing checkpoints the copy's log into it and deletes the log: the file is whole on its own.
    db.close();
  }
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return counts;
}

function countsOf(db: DatabaseSync): StoreCounts {
  const count = (table: string) => Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  return { schools: count('schools'), users: count('users'), records: count('api_requests') };
}

/** A rename or link is durable once its directory is synced. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
