// The rate limits' counters on the embedded store: a small SQLite file of their own beside the
// store file (`<DATABASE_PATH>.quotas`), which every API process on the machine opens, so that a
// quota is one quota however many processes serve it.
//
// A file of its own, not a table of the store: a hit then never waits for the lock a commit of
// request records holds during its fsync, and counters need no durability (synchronous=OFF: a
// crash of the machine may forget the last hits, never corrupt the file). Each hit is one
// statement of microseconds, so SQLite's own busy wait (a short timeout) is what waits for
// another process's hit, on the event loop, for as long as that statement takes.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { QuotaCounter, QuotaWindow } from '../../domain/ports.ts';
import { StoreUnavailableError } from '../../domain/errors.ts';

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
const HIT = `INSERT INTO quotas (key, hits, reset_at) VALUES (?1, 1, ?2 + ?3)
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN reset_at > ?2 THEN hits + 1 ELSE 1 END,
    reset_at = CASE WHEN reset_at > ?2 THEN reset_at ELSE excluded.reset_at END
  RETURNING hits, reset_at`;
const UNHIT = 'UPDATE quotas SET hits = max(hits - 1, 0) WHERE key = ? AND reset_at > ?';
const GET = 'SELECT hits, reset_at FROM quotas WHERE key = ? AND reset_at > ?';
const RESET = 'DELETE FROM quotas WHERE key = ?';
const EXPIRED = 'DELETE FROM quotas WHERE reset_at <= ?';
/** How long a hit waits for another process's (a statement of microseconds) before it is a 503. */
const BUSY_TIMEOUT_MS = 250;
/** Windows that are over are deleted at most this often. */
const SWEEP_MS = 60_000;

export class SqliteQuotaCounter implements QuotaCounter {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #now: () => number;
  #sweptAt = 0;

  private constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** The counters' file for the store at `storePath` (created when missing). */
  static open(storePath: string, now: () => number = Date.now): SqliteQuotaCounter {
    const path = `${storePath}.quotas`;
    let db: DatabaseSync | undefined;
    try {
      db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
      db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; ${SCHEMA}`);
      return new SqliteQuotaCounter(db, now);
    } catch (error) {
      db?.close();
      throw new StoreUnavailableError(`Cannot open the quota counters at ${path}.`, { cause: error });
    }
  }

  async hit(key: string, windowMs: number): Promise<QuotaWindow> {
    const now = this.#now();
    if (now - this.#sweptAt > SWEEP_MS) {
      this.#sweptAt = now;
      this.#run(() => this.#statement(EXPIRED).run(now));
    }
    const row = this.#run(() => this.#statement(HIT).get(key, now, windowMs)) as { hits: number; reset_at: number };
    return { hits: Number(row.hits), resetAt: new Date(Number(row.reset_at)) };
  }

  async unhit(key: string): Promise<void> {
    this.#run(() => this.#statement(UNHIT).run(key, this.#now()));
  }

  async get(key: string): Promise<QuotaWindow | undefined> {
    const row = this.#run(() => this.#statement(GET).get(key, this.#now())) as
      | { hits: number; reset_at: number }
      | undefined;
    return row ? { hits: Number(row.hits), resetAt: new Date(Number(row.reset_at)) } : undefined;
  }

  async reset(key: string): Promise<void> {
    this.#run(() => this.#statement(RESET).run(key));
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** A counter that cannot be read or written is the store failing: a 503, never a request let through uncounted. */
  #run<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw new StoreUnavailableError('The quota counters are unavailable.', { cause: error });
    }
  }
}
