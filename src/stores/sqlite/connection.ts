// The one connection every port of the embedded store shares, and the rules for calling it.
//
// node:sqlite is synchronous, so SQLite's own busy wait would freeze the whole server: the
// connection uses no busy timeout, and a call that finds the store locked is retried here,
// asynchronously, with backoff, for up to the busy budget; other requests (and the health routes)
// keep being served while it waits.
//
// An open SQLite connection keeps the file it opened (its inode), whatever happens to the path:
// if the file is deleted, renamed, or replaced by renaming another file over it, the connection
// would go on reading and writing a file that nobody will ever open again, and acknowledge writes
// that are lost at the next start. So calls check that DATABASE_PATH still names the file the
// connection has open before their work (the first call of each turn of the event loop: #seen),
// and every write after it too. When it does not, the connection is closed (which checkpoints
// its WAL into the file it had, wherever that file now is) and the call fails
// with StoreUnavailableError (a 503), also when its write reached the old file: it was never
// acknowledged. The next call opens whatever is at the path, but only an existing store file
// with no other file's log beside it (store-files.ts): a missing path is never created again at
// run time (that would be a new, empty store). The same happens after an I/O error or a damaged
// or foreign file (see RECONNECT): the API resumes by itself once a sound store file is back at
// the path, without a restart.
//
// Not detectable this way: a file overwritten or truncated in place (same inode). Pages the
// connection has cached hide it until they are read again; then it fails as damaged (503).
import { existsSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import {
  configure,
  createStoreFile,
  migrate,
  openDatabase,
  openReader,
  transaction,
  type SqliteOptions,
} from './database.ts';
import { BUSY, BUSY_BUDGET_MS, primaryCode, RECONNECT, translate } from './errors.ts';
import { type FileId, fileAt, sameFile } from './file-id.ts';
import { StoreFileError } from './store-file.error.ts';
import { openStoreFile, refuseLeftovers } from './store-files.ts';
import { identityOf, stampIdentity } from './store-identity.ts';

export class Connection {
  readonly #path: string;
  readonly #budgetMs: number;
  #db: DatabaseSync | undefined;
  #file: FileId | undefined;
  /** The open file's identity (PRAGMA application_id), which every write signs page 1 with. */
  #identity = 0;
  readonly #statements = new Map<string, StatementSync>();
  #generation = 0;
  #closed = false;
  /**
   * A write of this connection failed as unavailable and none has succeeded since: readiness
   * probes with a write. Records are written on a connection of their own (the request log
   * keeps their failing apart: request.store.ts).
   */
  #writesFailing = false;
  /**
   * The path was seen to name the open file in this turn of the event loop: the next calls of the
   * turn skip the stat (reset by setImmediate, at the turn's end). Under load a turn serves dozens
   * of requests, each reading its token; a file moved between two of them is a file moved just
   * after the stat, which no check before the work can rule out. Writes check after their work
   * too, always, so no write made to a moved file is acknowledged.
   */
  #seenThisTurn = false;

  private constructor(path: string, budgetMs: number) {
    this.#path = path;
    this.#budgetMs = budgetMs;
  }

  /**
   * Opens and migrates the store; waits while another process holds the lock (or checks the
   * files), every step asynchronously. Only a path with no file at all, and none of a lost
   * store's files beside it, makes a new store (createStoreFile); an existing file that is empty,
   * not a database or not a store, or whose log is another file's, stops here (StoreFileError)
   * instead of being made a new, empty store that would hide the loss of every account and record,
   * or of having another file's log copied into it (store-files.ts).
   */
  static async open({ path, busyBudgetMs = BUSY_BUDGET_MS }: SqliteOptions): Promise<Connection> {
    const connection = new Connection(path, busyBudgetMs);
    const retry = <T>(work: () => T) => connection.#retry(work, busyBudgetMs);
    if (path === ':memory:') {
      const db = openDatabase({ path });
      configure(db);
      migrate(db);
      connection.#adopt(db);
      return connection;
    }
    if (!existsSync(path)) {
      refuseLeftovers(path);
      await createStoreFile(path, retry);
    }
    const { db, file } = await retry(() => openStoreFile(path));
    try {
      await retry(() => configure(db));
      await retry(() => migrate(db));
      // A store made before identities gets one, copied into the file at once when nothing
      // stands in the way (PASSIVE): a log beside the file is checked against it from then on.
      if (await retry(() => stampIdentity(db))) checkpointSoon(db);
      connection.#adopt(db, file);
    } catch (error) {
      db.close();
      throw error;
    }
    return connection;
  }

  /**
   * A connection to a store another connection has created and migrated (a worker thread's): it
   * opens the file at its first call, and, like every reopening, never creates a missing one.
   */
  static attach({ path, busyBudgetMs = BUSY_BUDGET_MS }: SqliteOptions): Connection {
    return new Connection(path, busyBudgetMs);
  }

  /** The path of the store file. */
  get path(): string {
    return this.#path;
  }

  /** The busy budget (ms) of writes. */
  get busyBudgetMs(): number {
    return this.#budgetMs;
  }

  /** The open database. Only inside the work of read() or write(). */
  get db(): DatabaseSync {
    if (!this.#db) throw new StoreUnavailableError('The embedded store is not open.');
    return this.#db;
  }

  /** Bumped whenever the connection is opened again: what was cached about the old file is stale. */
  get generation(): number {
    return this.#generation;
  }

  get writesFailing(): boolean {
    return this.#writesFailing;
  }

  /** A prepared statement of the current connection (prepared once per connection). */
  statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Whether the store lives in memory (no file another connection could open). */
  get inMemory(): boolean {
    return this.#path === ':memory:';
  }

  /**
   * A read-only connection of its own to the file this connection has open (the caller closes
   * it): for a long read in one transaction that yields to the event loop between its steps.
   */
  openReader(): DatabaseSync {
    this.#ensureOpen();
    let reader: DatabaseSync;
    try {
      reader = openReader(this.#path);
    } catch (error) {
      throw translate(error);
    }
    if (!sameFile(fileAt(this.#path), this.#file)) {
      reader.close();
      throw new StoreUnavailableError(`The store file at ${this.#path} was moved or replaced.`);
    }
    return reader;
  }

  read<T>(work: () => T): Promise<T> {
    // A read checks the file before its work only: what it read came from the file the
    // connection had open, and nothing it did can be lost (a write checks after, too).
    return this.#retry(work, this.#budgetMs, 'before');
  }

  write<T>(work: () => T): Promise<T> {
    return this.#asWrite(this.#retry(() => this.#signed(work), this.#budgetMs, 'around'));
  }

  /** A write that does not wait for a lock another process holds (a probe of readiness answers at once). */
  writeAtOnce<T>(work: () => T): Promise<T> {
    return this.#asWrite(this.#retry(() => this.#signed(work), 0, 'around'));
  }

  /**
   * Runs a write in one transaction that also writes page 1, with the file's identity as it is
   * (store-identity.ts): every commit's frames in the log then carry the identity of the file
   * they were written for, and a log left beside another file is told by it (store-files.ts),
   * however small the changes it holds. One page more per commit, under the same fsync.
   */
  #signed<T>(work: () => T): T {
    return transaction(this.db, () => {
      const result = work();
      if (this.#identity !== 0) this.statement(`PRAGMA application_id = ${this.#identity}`).run();
      return result;
    });
  }

  /**
   * Proves that a durable write can be made now (lock, disk space, file): commits an unchanged
   * user_version, which writes one page. No busy wait: a health check answers at once.
   */
  probe(): Promise<void> {
    return this.writeAtOnce(() =>
      transaction(this.db, () => {
        const { user_version } = this.db.prepare('PRAGMA user_version').get() as { user_version: number };
        this.db.exec(`PRAGMA user_version = ${user_version}`);
      }),
    );
  }

  async #asWrite<T>(pending: Promise<T>): Promise<T> {
    try {
      const result = await pending;
      this.#writesFailing = false;
      return result;
    } catch (error) {
      if (error instanceof StoreUnavailableError) this.#writesFailing = true;
      throw error;
    }
  }

  close(): void {
    this.#closed = true;
    // A file moved or replaced since the last call: its WAL must not be left at the path, where
    // the next start would apply it to whatever file is there.
    let moved = false;
    try {
      moved = this.#path !== ':memory:' && this.#db !== undefined && !sameFile(fileAt(this.#path), this.#file);
    } catch {
      moved = true;
    }
    this.#drop(moved);
  }

  /** checkFile: that the path still names the file open, before the work, or before and after it. */
  async #retry<T>(work: () => T, budgetMs: number, checkFile?: 'before' | 'around'): Promise<T> {
    const deadline = performance.now() + budgetMs;
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      try {
        if (checkFile) this.#ensureOpen();
        const result = work();
        if (checkFile === 'around') this.#ensureSameFile();
        return result;
      } catch (error) {
        const code = primaryCode(error);
        if (code !== undefined && BUSY.has(code) && performance.now() + delay <= deadline) {
          await sleep(delay);
          continue;
        }
        if (code !== undefined && RECONNECT.has(code) && this.#path !== ':memory:') this.#drop();
        throw translate(error);
      }
    }
  }

  #ensureOpen(): void {
    if (this.#closed) throw new StoreUnavailableError('The embedded store is closed.');
    if (this.#path === ':memory:' || (this.#db && this.#seenThisTurn)) return;
    const current = fileAt(this.#path);
    if (this.#db && sameFile(current, this.#file)) {
      this.#seen();
      return;
    }
    this.#drop(true);
    if (!current) throw new StoreUnavailableError(`There is no store file at ${this.#path}.`);
    // The same checks as at start (store-files.ts): a file moved in over another file's log is
    // a 503, never that log copied into it; a file that is no store is never migrated into an
    // empty one, which would hide the loss of the real one.
    let opened: ReturnType<typeof openStoreFile>;
    try {
      opened = openStoreFile(this.#path);
    } catch (error) {
      if (error instanceof StoreFileError)
        throw new StoreUnavailableError(`The store file at ${this.#path} cannot be used.`, { cause: error });
      throw error;
    }
    const { db, file } = opened;
    try {
      configure(db);
      migrate(db);
    } catch (error) {
      db.close();
      throw error;
    }
    this.#adopt(db, file);
  }

  #seen(): void {
    if (this.#seenThisTurn) return;
    this.#seenThisTurn = true;
    setImmediate(() => {
      this.#seenThisTurn = false;
    });
  }

  #ensureSameFile(): void {
    if (this.#path === ':memory:' || sameFile(fileAt(this.#path), this.#file)) return;
    this.#drop(true);
    throw new StoreUnavailableError(`The store file at ${this.#path} was moved or replaced.`);
  }

  /** `file`: the file stat-ed before it was opened, when the caller checked it is still the one at the path. */
  #adopt(db: DatabaseSync, file?: FileId): void {
    this.#db = db;
    this.#identity = this.#path === ':memory:' ? 0 : identityOf(db);
    // The file the connection has open: node:sqlite opens it in the constructor.
    this.#file = this.#path === ':memory:' ? undefined : (file ?? fileAt(this.#path));
    this.#generation++;
  }

  /**
   * Closes the connection. `moved`: the path no longer names the file it has open. SQLite then
   * skips its checkpoint on close and leaves the WAL at the path, where it would be taken for the
   * WAL of whatever file is there now (its pages served as that file's, and written into it).
   * So the WAL is first checkpointed into the file the connection has open, wherever that file
   * now is, and emptied: that file is complete on its own, and nothing stale is left at the path.
   */
  #drop(moved = false): void {
    this.#seenThisTurn = false;
    this.#statements.clear();
    const db = this.#db;
    this.#db = undefined;
    this.#file = undefined;
    if (!db?.isOpen) return;
    try {
      if (moved) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // Best effort: the file may be unreadable too.
    }
    try {
      db.close();
    } catch {
      // Closing a broken connection may fail; it is gone either way.
    }
  }
}

/** Copies what it can of the log into the file without waiting for anyone; nothing lost if it cannot. */
function checkpointSoon(db: DatabaseSync): void {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Another connection's checkpoint, or a full disk: the next checkpoint copies it.
  }
}
