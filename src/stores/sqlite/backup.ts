// `school-search backup <file>`: a copy of the embedded store, made while servers run on it.
//
// SQLite's online backup (node:sqlite backup()) copies the store as one snapshot (all pages in
// one step: a step-wise copy starts over whenever another process commits, so it might never end
// under load), off the event loop, into a temporary file beside the target. The copy is checked
// (quick_check, a store's tables), given an identity of its own (store-identity.ts: moved in over
// the log of the store it came from, it is then refused rather than damaged), made durable, and
// linked into place only when complete: a target that exists is never overwritten, and no
// half-made copy is ever at its name.
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { backup } from 'node:sqlite';
import { Connection } from './connection.ts';
import { StoreFileError } from './store-file.error.ts';
import { sealCopy, type StoreCounts, syncDirectory } from './store-copy.ts';
import { BESIDE } from './store-files.ts';

export interface BackupReport extends StoreCounts {
  readonly target: string;
  readonly bytes: number;
}

/** All pages in one step of sqlite3_backup_step (node:sqlite wants a positive rate). */
const ALL_PAGES = 2 ** 31 - 1;

export async function backupStore(path: string, target: string): Promise<BackupReport> {
  const to = resolve(target);
  if (to === resolve(path) || BESIDE.some((suffix) => to === resolve(`${path}${suffix}`)))
    throw StoreFileError.refused(`The backup cannot be written to the store's own files (${to}).`);
  const taken = [to, ...BESIDE.map((suffix) => `${to}${suffix}`)].filter((file) => existsSync(file));
  if (taken.length > 0)
    throw StoreFileError.refused(`${taken.join(', ')} already exists: back up to a new file (nothing is overwritten).`);
  if (!existsSync(path)) throw StoreFileError.refused(`There is no store at ${path} to back up.`);

  mkdirSync(dirname(to), { recursive: true });
  const connection = await Connection.open({ path });
  const partial = `${to}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await backup(connection.db, partial, { rate: ALL_PAGES });
    const counts = sealCopy(partial, path);
    try {
      linkSync(partial, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw StoreFileError.refused(`${to} appeared while the backup was made: nothing was overwritten.`);
      throw error;
    }
    syncDirectory(dirname(to));
    return { target: to, bytes: statSync(to).size, ...counts };
  } finally {
    for (const suffix of ['', ...BESIDE]) rmSync(`${partial}${suffix}`, { force: true });
    connection.close();
  }
}
