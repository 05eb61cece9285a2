// The rate limits' counters on the embedded store: a small SQLite file of their own beside the
// store file (`<DATABASE_PATH>.quotas`), which every API process on the machine opens, so that a
// quota is one quota however many processes serve it.
//
// A file of its own, not a table of the store: a hit then never waits for the lock a commit of
// request records holds during its fsync, and counters need no durability (synchronous=OFF: a
// crash of the machine may forget the last hits). Each hit is one statement of microseconds; one
// that finds the file locked by another process (its hit, its checkpoint, its last close) waits
// asynchronously, as the store's calls do (connection.ts), never in SQLite's busy wait, which
// would stop the event loop.
//
// The file is disposable by design: it holds nothing but counters of windows of at most an hour.
// Missing (deleted, never made), damaged or not a database, it is made again, here and in every
// other process on the store, with a warning naming what was lost (the counters: a quota already
// spent starts again), and the API goes on serving. Only a full disk (or a lock held past the
// busy timeout) fails a hit: a 503, never a request let through uncounted.
//
// Its log is bounded: see `HIT` for why it once grew without end, `JOURNAL_SIZE_LIMIT` and the
// periodic checkpoint for the bounds that hold whatever the cause.
import { closeSync, existsSync, mkdirSync, openSync, readSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import type { QuotaCounter, QuotaWindow } from '../../domain/metering/metering.ports.ts';
import type { StoreWarning } from '../store.config.ts';
import { BUSY, primaryCode } from './errors.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS quotas (
    key TEXT PRIMARY KEY,
    hits INTEGER NOT NULL,
    -- Milliseconds since the epoch.
    reset_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS quotas_by_reset ON quotas (reset_at);
`;
// One atomic step: a live window counts one more; none, or one that is over, starts again at 1.
// (Every expression of the UPDATE reads the row as it was before it.)
//
// Run with .all(), never .get(): .get() stops after the first row RETURNING gives and leaves the
// statement unfinished until its next run, and the write transaction's end then never lets the
// automatic checkpoint restart the log, which grew by ~8 KB a hit (174 MB after ~21,000
// requests) until the disk was full. .all() steps it to the end: the log stays at its usual size.
const HIT = `INSERT INTO quotas (key, hits, reset_at) VALUES (?1, 1, ?2 + ?3)
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN reset_at > ?2 THEN hits + 1 ELSE 1 END,
    reset_at = CASE WHEN reset_at > ?2 THEN reset_at ELSE excluded.reset_at END
  RETURNING hits, reset_at`;
const UNHIT = 'UPDATE quotas SET hits = max(hits - 1, 0) WHERE key = ? AND reset_at > ?';
const GET = 'SELECT hits, reset_at FROM quotas WHERE key = ? AND reset_at > ?';
const RESET = 'DELETE FROM quotas WHERE key = ?';
const EXPIRED = 'DELETE FROM quotas WHERE reset_at <= ?';
/** A write that proves the file takes writes now (readiness, after a hit failed). */
const PROBE = `INSERT INTO quotas (key, hits, reset_at) VALUES ('readiness-probe', 0, 0)
  ON CONFLICT (key) DO UPDATE SET reset_at = 0`;
/**
 * How long a hit waits for another process's (a statement of microseconds), or for another process
 * making the file again, before it is a 503.
 */
const WAIT_MS = 1000;
/** Windows that are over are deleted, and the log checkpointed, at most this often. */
const SWEEP_MS = 60_000;
/**
 * After a checkpoint, the log file is cut back to this size (bytes). With the automatic
 * checkpoint (every 1,000 pages, ~4 MB) the log then stays under ~4 MB in use and 1 MB at rest.
 */
export const JOURNAL_SIZE_LIMIT = 1_048_576;
/** SQLite codes that mean the file itself is gone or unusable, not that it is busy or full: it is made again. */
const DAMAGED = new Set([10 /* IOERR */, 11 /* CORRUPT */, 14 /* CANTOPEN */, 26 /* NOTADB */]);
/** A lock older than this was left by a process that died while making the file: it is taken over. */
const STALE_LOCK_MS = 10_000;

export type QuotaWarning = StoreWarning;

interface FileId {
  readonly dev: number;
  readonly ino: number;
}

function fileAt(path: string): FileId | undefined {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat ? { dev: stat.dev, ino: stat.ino } : undefined;
  } catch {
    return undefined;
  }
}

const sameFile = (a: FileId | undefined, b: FileId | undefined) =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

export class SqliteQuotaCounter implements QuotaCounter {
  readonly #path: string;
  readonly #now: () => number;
  readonly #warn: QuotaWarning;
  #db: DatabaseSync | undefined;
  #file: FileId | undefined;
  readonly #statements = new Map<string, StatementSync>();
  #sweptAt = 0;
  /** Whether a file was ever open: the first making of a missing file (a new store) is no loss to warn about. */
  #opened = false;
  /** The last hit failed (full disk, lock held): readiness proves a write before it says ready. */
  #failing = false;
  #closed = false;

  private constructor(path: string, now: () => number, warn: QuotaWarning) {
    this.#path = path;
    this.#now = now;
    this.#warn = warn;
  }

  /**
   * The counters' file for the store at `storePath`: opened, or made when missing or damaged. A
   * file another process holds locked just now is opened at the first call instead.
   */
  static open(storePath: string, options: { now?: () => number; warn?: QuotaWarning } = {}): SqliteQuotaCounter {
    const counter = new SqliteQuotaCounter(
      `${storePath}.quotas`,
      options.now ?? Date.now,
      options.warn ?? stderrWarning,
    );
    try {
      counter.#attempt(() => undefined);
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
    return counter;
  }

  /** The file's path (`<DATABASE_PATH>.quotas`). */
  get path(): string {
    return this.#path;
  }

  async hit(key: string, windowMs: number): Promise<QuotaWindow> {
    const now = this.#now();
    if (now - this.#sweptAt > SWEEP_MS) {
      this.#sweptAt = now;
      await this.#run(() => {
        this.#statement(EXPIRED).run(now);
        // PASSIVE: copies what it can without waiting for any other process; the size limit
        // then cuts the log back when the next write starts it over.
        this.#db!.exec('PRAGMA wal_checkpoint(PASSIVE)');
      });
    }
    const rows = (await this.#run(() => this.#statement(HIT).all(key, now, windowMs))) as Array<{
      hits: number;
      reset_at: number;
    }>;
    const row = rows[0]!;
    return { hits: Number(row.hits), resetAt: new Date(Number(row.reset_at)) };
  }

  async unhit(key: string): Promise<void> {
    await this.#run(() => this.#statement(UNHIT).run(key, this.#now()));
  }

  async get(key: string): Promise<QuotaWindow | undefined> {
    const row = (await this.#run(() => this.#statement(GET).get(key, this.#now()))) as
      | { hits: number; reset_at: number }
      | undefined;
    return row ? { hits: Number(row.hits), resetAt: new Date(Number(row.reset_at)) } : undefined;
  }

  async reset(key: string): Promise<void> {
    await this.#run(() => this.#statement(RESET).run(key));
  }

  /**
   * Readiness: the file is there (made again if it was lost), readable, and — after a hit
   * failed — takes a write again. Throws StoreUnavailableError otherwise.
   */
  async ping(): Promise<void> {
    await this.#run(() => {
      if (this.#failing) this.#statement(PROBE).run();
      else this.#statement(GET).get('readiness-probe', 0);
    });
  }

  close(): void {
    this.#closed = true;
    this.#drop();
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db!.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `work` on the file at the path now (#attempt); while another process holds the file's
   * lock, or is making the file again, waits and tries again, asynchronously, for up to WAIT_MS.
   */
  async #run<T>(work: () => T): Promise<T> {
    const deadline = performance.now() + WAIT_MS;
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      try {
        return this.#attempt(work);
      } catch (error) {
        if (!isBusy(error) || performance.now() + delay > deadline) this.#fail(error);
        await sleep(delay);
      }
    }
  }

  /**
   * One try of `work` on the file at the path now. A file that is gone, damaged or replaced is
   * dropped and made (or opened) again, and the work tried once more; what still fails is a 503,
   * except a busy file, whose error is thrown as it is (#run waits and tries again).
   */
  #attempt<T>(work: () => T): T {
    if (this.#closed) throw new StoreUnavailableError('The quota counters are closed.');
    for (let attempt = 0; ; attempt++) {
      try {
        this.#ensureOpen();
        const result = work();
        this.#failing = false;
        return result;
      } catch (error) {
        if (isBusy(error)) throw error;
        const code = primaryCode(error);
        if (attempt === 0 && code !== undefined && DAMAGED.has(code)) {
          try {
            this.#remake('damaged', error);
            continue;
          } catch (remakeError) {
            if (isBusy(remakeError)) throw remakeError;
            this.#fail(remakeError);
          }
        }
        this.#fail(error);
      }
    }
  }

  #fail(error: unknown): never {
    this.#failing = true;
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError('The quota counters are unavailable.', { cause: error });
  }

  /** Opens the file at the path when the connection has none, or has another (deleted, replaced) one. */
  #ensureOpen(): void {
    const current = fileAt(this.#path);
    if (this.#db && sameFile(current, this.#file)) return;
    const replaced = this.#db !== undefined && current !== undefined;
    this.#drop();
    if (!current) {
      this.#remake('missing');
      return;
    }
    this.#adopt(current);
    if (replaced)
      this.#warn('the quota counters file was replaced: counting goes on in the file now at its path', {
        file: this.#path,
        lost: 'rate-limit counters only: quotas already spent in the current windows start again',
      });
  }

  /** Opens the existing file `expected` (never creates one: a file that went away is made again under the lock). */
  #adopt(expected: FileId): void {
    const url = pathToFileURL(this.#path);
    url.searchParams.set('mode', 'rw');
    // timeout 0: a locked file fails at once, and #run waits without blocking the event loop.
    const db = new DatabaseSync(url, { timeout: 0 });
    try {
      if (!sameFile(fileAt(this.#path), expected)) throw new FileLostError(this.#path);
      // SQLite would read the first page from a log left at the path by the file this one
      // replaced, and take the file for sound: its own header is what tells.
      if (!hasDatabaseHeader(this.#path)) throw new NotADatabaseError(this.#path);
      db.exec(
        `PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT}; ${SCHEMA}`,
      );
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    this.#file = expected;
    this.#opened = true;
  }

  /**
   * Makes the file again (missing, or damaged: then deleted first). One process at a time, under
   * a lock directory: the log and shared-memory files left at the path belong to the lost file,
   * and are deleted before a new file appears there, never after another process has opened it.
   * While another process holds the lock: RemakingError (busy: #run waits and tries again).
   */
  #remake(reason: 'missing' | 'damaged', cause?: unknown): void {
    this.#drop();
    const lock = `${this.#path}.lock`;
    if (!tryLock(lock)) throw new RemakingError(this.#path);
    try {
      const current = fileAt(this.#path);
      // Another process made it while this one waited: use that one.
      if (current && (reason === 'missing' || !this.#stillDamaged(current))) {
        this.#adopt(current);
        return;
      }
      const leftovers = ['-wal', '-shm'].some((suffix) => existsSync(`${this.#path}${suffix}`));
      const quiet = reason === 'missing' && !this.#opened && !leftovers;
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${this.#path}${suffix}`, { force: true });
      // Created empty here, under the lock; made a database by #adopt.
      new DatabaseSync(this.#path).close();
      this.#adopt(fileAt(this.#path)!);
      if (!quiet)
        this.#warn(
          reason === 'missing'
            ? 'the quota counters file was missing: made a new one'
            : 'the quota counters file was damaged: replaced it with a new one',
          {
            file: this.#path,
            lost: 'rate-limit counters only: quotas already spent in the current windows start again',
            ...(cause instanceof Error ? { cause: cause.message } : {}),
          },
        );
    } finally {
      rmdirSync(lock);
    }
  }

  /** Whether the file now at the path is still unusable (another process may have replaced it already). */
  #stillDamaged(current: FileId): boolean {
    try {
      this.#adopt(current);
      this.#db!.prepare('SELECT count(*) FROM quotas').get();
      return false;
    } catch (error) {
      // Locked by another process is not damaged: never deleted for that.
      if (isBusy(error)) throw error;
      return true;
    } finally {
      this.#drop();
    }
  }

  #drop(): void {
    this.#statements.clear();
    const db = this.#db;
    this.#db = undefined;
    this.#file = undefined;
    try {
      if (db?.isOpen) db.close();
    } catch {
      // A broken connection may fail to close; it is gone either way.
    }
  }
}

/** The file went away between its stat and its opening: it is made again (SQLite's CANTOPEN). */
class FileLostError extends Error {
  readonly errcode = 14;
  constructor(path: string) {
    super(`The quota counters file ${path} went away while it was opened.`);
  }
}

/** Another process is making the file again: waited for as for a lock (SQLite's BUSY). */
class RemakingError extends Error {
  readonly errcode = 5;
  constructor(path: string) {
    super(`Another process is making the quota counters file ${path} again.`);
  }
}

function isBusy(error: unknown): boolean {
  const code = primaryCode(error);
  return code !== undefined && BUSY.has(code);
}

/** Garbage where the counters file should be: made again (SQLite's NOTADB). */
class NotADatabaseError extends Error {
  readonly errcode = 26;
  constructor(path: string) {
    super(`The quota counters file ${path} is not a database.`);
  }
}

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** An empty file (made, not yet written) or one that starts as every SQLite database does. */
function hasDatabaseHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(HEADER.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return read === 0 || (read === HEADER.length && head.equals(HEADER));
  } finally {
    closeSync(fd);
  }
}

/** Takes the lock directory; a stale one (its maker died) is taken over. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const stat = statSync(lock, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function stderrWarning(message: string, details: Readonly<Record<string, unknown>>): void {
  process.stderr.write(`school-search: warning: ${message} (${JSON.stringify(details)})\n`);
}
