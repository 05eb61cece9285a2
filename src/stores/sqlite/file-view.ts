// Looking at a store file that may be in use, without disturbing it, and only one process at a time.
//
// The check lock is a directory beside the store file (`<DATABASE_PATH>.checking`), made with
// mkdir, which only one process can do: the processes that open a store with a log beside it, and
// `school-search restore`, take it in turn, so that none of them takes another's check for a
// process that has the store open. One that died while holding it leaves it behind; a lock older
// than STALE_MS is taken over.
//
// The view is a connection in EXCLUSIVE locking mode to hard links (in that directory) to the
// store file and, if asked, its log. SQLite locks the file itself (its inode), whatever name
// opened it, so the view gets its read only when no other connection anywhere has the store
// open: every connection in WAL mode holds a shared lock on the file for as long as it is open.
// The view then reads the store with its log (the log's index in its own memory, not in the
// -shm), and the view's close never copies the log into the file, since its name is unlinked
// first (SQLite skips the checkpoint of a file that moved); only checkpoint() does, on purpose.
import { existsSync, linkSync, mkdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import { quickCheck } from './database.ts';
import { BUSY, primaryCode } from './errors.ts';
import { type FileId, fileAt, sameFile } from './file-id.ts';

/** A check lock older than this was left by a process that died while checking: it is taken over. */
const STALE_MS = 10_000;

/** Another process holds the check lock, or the file changed under a check: SQLITE_BUSY's code, so callers wait and try again. */
export class CheckBusyError extends Error {
  readonly errcode = 5;
}

export class CheckLock {
  readonly #path: string;
  readonly #dir: string;

  private constructor(path: string, dir: string) {
    this.#path = path;
    this.#dir = dir;
  }

  /** Takes the check lock of the store file at `path`; CheckBusyError while another process holds it. */
  static take(path: string): CheckLock {
    const dir = `${path}.checking`;
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new StoreUnavailableError(`Cannot make the check lock ${dir}.`, { cause: error });
      const stat = statSync(dir, { throwIfNoEntry: false });
      if (stat && Date.now() - stat.mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true });
      throw new CheckBusyError(`Another process is checking the store file ${path}.`);
    }
    return new CheckLock(path, dir);
  }

  /** Keeps the lock from looking stale before a long step. */
  touch(): void {
    const now = new Date();
    utimesSync(this.#dir, now, now);
  }

  /**
   * The view of the file at the path (which must still be `file`), with its log when `withLog`;
   * undefined when another connection has the file open.
   */
  view(file: FileId, withLog: boolean): FileView | undefined {
    const main = join(this.#dir, basename(this.#path));
    linkSync(this.#path, main);
    if (!sameFile(fileAt(main), file)) {
      rmSync(main);
      throw new CheckBusyError(`The store file ${this.#path} changed while it was checked.`);
    }
    if (withLog && existsSync(`${this.#path}-wal`)) {
      try {
        linkSync(`${this.#path}-wal`, `${main}-wal`);
      } catch (error) {
        // Deleted since it was read: its last connection closed, having copied it into the file.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    const view = new FileView(main);
    if (view.open()) return view;
    return undefined;
  }

  release(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

export class FileView {
  readonly #main: string;
  readonly #db: DatabaseSync;

  constructor(main: string) {
    this.#main = main;
    this.#db = new DatabaseSync(main, { timeout: 0 });
  }

  /** Takes the file's exclusive lock with a first read; false (and closed) when another connection has it open. */
  open(): boolean {
    try {
      this.#db.exec('PRAGMA locking_mode = EXCLUSIVE');
      // A file in WAL mode is locked exclusively as its log is opened, at the first read; one in
      // rollback mode only when a transaction asks for it.
      this.#db.prepare('SELECT count(*) FROM sqlite_master').get();
      const { journal_mode } = this.#db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
      if (journal_mode !== 'wal') this.#db.exec('BEGIN EXCLUSIVE; COMMIT');
      return true;
    } catch (error) {
      this.close();
      const code = primaryCode(error);
      if (code !== undefined && BUSY.has(code)) return false;
      throw error;
    }
  }

  /** SQLite's quick_check of the file as its log makes it: 'ok', or the first problem found. */
  quickCheck(): string {
    return quickCheck(this.#db);
  }

  /** The file's tables and user_version, as checkStoreFile reads them. */
  get db(): DatabaseSync {
    return this.#db;
  }

  /** Copies the whole log into the file and empties the log (TRUNCATE): the file is then complete on its own. */
  checkpoint(): void {
    const row = this.#db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
    if (row.busy !== 0) throw new CheckBusyError(`The log of ${this.#main} could not be checkpointed.`);
  }

  /** Closes without copying the log into the file: the names go first, so SQLite sees a file that moved. */
  close(): void {
    rmSync(`${this.#main}-wal`, { force: true });
    rmSync(this.#main, { force: true });
    try {
      if (this.#db.isOpen) this.#db.close();
    } finally {
      rmSync(`${this.#main}-journal`, { force: true });
      rmSync(`${this.#main}-wal`, { force: true });
    }
  }
}
