// What may be opened as the store: the store file and the files SQLite keeps beside it (its
// write-ahead log `-wal`, the log's shared-memory index `-shm`) must belong together.
//
// SQLite takes whatever log it finds beside a file for that file's own, and copies it in: a store
// file lost after a crash, with its log left behind, would be made a new, empty store that the
// old log then damages ("btreeInitPage() returns error code 11"), and a backup moved in over the
// log of the store it replaces is damaged the same way. So, before SQLite sees them:
//
// - no file at the path, but a -wal, -shm or -journal there: refused (StoreFileError.lost), never
//   made a new store;
// - a log with committed frames beside the file: read without SQLite (wal-file.ts); its page size
//   must be the file's, and page 1 in it (which every commit of this store writes:
//   Connection.write) must carry the file's identity (store-identity.ts);
// - then, since a log without a page-1 frame says nothing of whose it is: if no other connection
//   has the store open (after a crash, the log is nobody's live log), SQLite's quick_check of the
//   file read with its log, in a view that cannot copy the log in (file-view.ts). With another
//   connection open, the log is that connection's, checked when it opened: the check is skipped.
//
// Refusals touch nothing. Measured on the seed's store (149,311 schools, 37 MB): the quick_check
// after a crash, ~50 ms; a command started while a server runs, ~2 ms for all of this.
import { existsSync, statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { checkStoreFile, openExisting } from './database.ts';
import { primaryCode } from './errors.ts';
import { CheckBusyError, CheckLock } from './file-view.ts';
import { type FileId, fileAt, sameFile } from './file-id.ts';
import { StoreFileError } from './store-file.error.ts';
import { headerOf } from './store-identity.ts';
import { readWal, type WalContents } from './wal-file.ts';

/** The files SQLite may keep beside a store file. */
export const BESIDE = ['-wal', '-shm', '-journal'] as const;

/** Refuses to make a store at `path` (where there is no file) while files of a lost one are beside it. */
export function refuseLeftovers(path: string): void {
  const leftovers = BESIDE.map((suffix) => `${path}${suffix}`).filter((file) => existsSync(file));
  // Seen again after the leftovers: another process may have made the store (and its log) meanwhile.
  if (leftovers.length > 0 && !existsSync(path)) throw StoreFileError.lost(path, leftovers);
}

/**
 * What the log beside the existing store file at `path` would bring into it: undefined when
 * nothing (no log, an empty one, or none SQLite would read), else its committed frames.
 * StoreFileError when it cannot be this file's log.
 */
export function checkLogBeside(path: string): WalContents | undefined {
  const journal = `${path}-journal`;
  if (existsSync(journal) && statSync(journal).size > 0)
    throw StoreFileError.mixed(path, journal, 'it is a rollback journal, which no school-search store writes');
  const wal = `${path}-wal`;
  const log = readWal(wal);
  if (!log || log.committedFrames === 0) return undefined;
  const main = headerOf(path);
  if (!main) throw StoreFileError.mixed(path, wal, 'the file is empty or no database, yet the log holds changes');
  if (log.pageSize !== main.pageSize)
    throw StoreFileError.mixed(path, wal, `its pages are of ${log.pageSize} bytes, the file's of ${main.pageSize}`);
  const ids = log.pageOneIdentities;
  // A store without an identity (made before identities) cannot tell: the quick_check will.
  // Before a store got its identity, page 1 carried none (0): earlier frames may show that.
  const foreign = ids.find((id) => id !== main.identity && id !== 0) ?? (ids.at(-1) === 0 ? 0 : undefined);
  if (main.identity !== 0 && foreign !== undefined)
    throw StoreFileError.mixed(
      path,
      wal,
      `the log was written by another file (its identity ${hex(foreign)}, this file's ${hex(main.identity)})`,
    );
  return log;
}

/**
 * Opens the existing store file at `path` once the files beside it allow (see above), and reads
 * it once (checkStoreFile): from then on this connection holds the file, and any process's view
 * sees it in use. StoreFileError when refused; an error with SQLITE_BUSY's code while another
 * process holds a lock or the check lock (callers wait and try again).
 */
export function openStoreFile(path: string): { db: DatabaseSync; file: FileId } {
  const file = fileAt(path);
  if (!file) throw new CheckBusyError(`The store file ${path} went away while it was opened.`);
  const log = checkLogBeside(path);
  // The check lock is held until this connection's first read: a process checking after it
  // then sees the store in use, not a crashed store whose log it must check itself.
  const lock = log ? CheckLock.take(path) : undefined;
  try {
    if (lock) checkAfterCrash(path, lock, file);
    const db = openExisting(path);
    try {
      checkStoreFile(db, path);
      if (!sameFile(fileAt(path), file))
        throw new CheckBusyError(`The store file ${path} changed while it was opened.`);
    } catch (error) {
      db.close();
      throw error;
    }
    return { db, file };
  } finally {
    lock?.release();
  }
}

/** The quick_check of the file with its log, when no other connection has it open. */
function checkAfterCrash(path: string, lock: CheckLock, file: FileId): void {
  const refuse = (result: string) =>
    StoreFileError.mixed(
      path,
      `${path}-wal`,
      `read with that log, the file fails SQLite's quick_check ("${result}"): the log is another file's, or the file is damaged`,
    );
  let view: ReturnType<CheckLock['view']>;
  try {
    view = lock.view(file, true);
  } catch (error) {
    // Damaged past its first page with the log in it: the view had its lock by then (file-view.ts).
    if ([11, 26].includes(primaryCode(error) ?? 0)) throw refuse((error as Error).message);
    throw error;
  }
  if (!view) return;
  try {
    lock.touch();
    const result = view.quickCheck();
    if (result !== 'ok') throw refuse(result);
  } finally {
    view.close();
  }
}

function hex(id: number): string {
  return `0x${(id >>> 0).toString(16).padStart(8, '0')}`;
}
