import type { HistoryPosition } from '../../domain/metering/history-cursor.ts';
import type {
  DayUsage,
  HistoryPage,
  HistoryQuery,
  RecordedSearch,
  RequestLog,
  RequestRecord,
  SourceUsage,
  Usage,
} from '../../domain/metering/metering.ports.ts';
import type { SchoolLevel, TypeFilter } from '../../domain/catalog/school-kind.ts';
import {
  OriginNotAllowedError,
  RecordExistsError,
  StoreUnavailableError,
  UnauthenticatedError,
} from '../../domain/shared/errors.ts';
import type { Connection } from './connection.ts';
import { RecordWriter } from './record-writer.ts';
import { probeRecords, type Refusal, writeRecords } from './records.ts';

interface RecordRow {
  id: string;
  user_id: string;
  request_made: string;
  time_made: string;
  cost: number;
  state_code: string | null;
  page_offset: number | null;
  page_limit: number | null;
  levels: string | null;
  types: string | null;
  near_latitude: number | null;
  near_longitude: number | null;
  radius_km: number | null;
  key_id: string | null;
  origin: string | null;
}

interface Pending {
  readonly record: RequestRecord;
  /** The token the record must have been made with (append's madeWith). */
  readonly madeWith: string | undefined;
  resolve(): void;
  reject(error: unknown): void;
}

// The index api_requests_by_user_time (user, time DESC, id DESC) yields each of these in order
// from the page's start: a page reads offset + limit + 1 entries, however long the history.
const COLUMNS =
  'SELECT id, user_id, request_made, time_made, cost, state_code, page_offset, page_limit, levels, types, near_latitude, near_longitude, radius_km, key_id, origin FROM api_requests';
const ORDER = 'ORDER BY time_made DESC, id DESC LIMIT ? OFFSET ?';
const ONE = `${COLUMNS} WHERE id = ? AND user_id = ?`;
const PAGE = `${COLUMNS} WHERE user_id = ? AND time_made >= ? ${ORDER}`;
// After a cursor: the range starts at its time, and the records of that very time at or above
// its id are skipped (ids break ties in the history's order).
const PAGE_AFTER = `${COLUMNS} WHERE user_id = ? AND time_made >= ? AND time_made <= ? AND (time_made < ? OR id < ?) ${ORDER}`;
// One key's records: the same pages over api_requests_by_key (user, key, time DESC, id DESC).
const KEY_PAGE = `${COLUMNS} WHERE user_id = ? AND key_id = ? AND time_made >= ? ${ORDER}`;
const KEY_PAGE_AFTER = `${COLUMNS} WHERE user_id = ? AND key_id = ? AND time_made >= ? AND time_made <= ? AND (time_made < ? OR id < ?) ${ORDER}`;
const KEY_KEPT =
  'SELECT coalesce(sum(count), 0) AS total FROM usage_sources WHERE user_id = ? AND key_id = ? AND day >= ?';
const KEY_BY_DAY = `SELECT day, sum(count) AS count, sum(cost) AS cost FROM usage_sources
  WHERE user_id = ? AND key_id = ? AND day >= ? AND day <= ? GROUP BY day ORDER BY day`;
const BY_SOURCE = `SELECT key_id, origin, sum(count) AS count, sum(cost) AS cost FROM usage_sources
  WHERE user_id = ? AND day >= ? AND day <= ? GROUP BY key_id, origin`;
const USAGE = 'SELECT request_count, total_cost, last_request_at FROM users WHERE id = ?';
const KEPT = 'SELECT coalesce(sum(count), 0) AS total FROM usage_days WHERE user_id = ? AND day >= ?';
const BY_DAY = 'SELECT day, count, cost FROM usage_days WHERE user_id = ? AND day >= ? AND day <= ? ORDER BY day';
// The users with records of days before the retention's first: the purge deletes theirs by the
// user-and-time index (there is none on time alone), a batch at a time.
const USERS_BEFORE = 'SELECT DISTINCT user_id FROM usage_days WHERE day < ?';
const PURGE_BATCH = 1000;
const PURGE = `DELETE FROM api_requests WHERE rowid IN
  (SELECT rowid FROM api_requests WHERE user_id = ? AND time_made < ? LIMIT ${PURGE_BATCH})`;

/** Records committed together at most: a bound on one transaction's size (and on its time holding the lock). */
const MAX_BATCH = 500;

export class SqliteRequestLog implements RequestLog {
  readonly #connection: Connection;
  /** Commits in a worker thread; none for a store in memory, which another thread cannot open. */
  readonly #writer: RecordWriter | undefined;
  /** Appends waiting for the next commit. */
  #pending: Pending[] = [];
  /** The commit in progress, if any: the next one starts after it. */
  #committing: Promise<void> | undefined;
  /** Told of each token a record was refused for (the token store forgets it). */
  readonly #onRefused: (tokenId: string) => void;
  /**
   * A commit of records failed as unavailable, and none (nor a probe) has succeeded since: the
   * instance cannot meter searches, and readiness says so (SqliteStore.ping). Only this log's own
   * commits clear it, made where records are made: a write that succeeds elsewhere (another
   * connection, another table, one page) proves nothing about the pages a record needs.
   */
  #failing = false;

  constructor(connection: Connection, onRefused: (tokenId: string) => void = () => {}) {
    this.#connection = connection;
    this.#onRefused = onRefused;
    this.#writer = connection.inMemory
      ? undefined
      : new RecordWriter({ path: connection.path, busyBudgetMs: connection.busyBudgetMs });
  }

  /**
   * Group commit: the records appended while the event loop handles one round of I/O (every
   * search of that round) are written in one transaction, so that one fsync (synchronous=FULL)
   * makes them all durable; each call resolves only once its record is on disk. Under load this
   * is one fsync per round instead of one per search, and it happens in the writer's thread
   * (record-writer.ts), not on the event loop. A batch that fails is written again one record at
   * a time, so that a bad record fails alone and a store that cannot write fails all.
   */
  warmUp(): void {
    this.#writer?.warmUp();
  }

  append(record: RequestRecord, madeWith?: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ record, madeWith, resolve, reject });
      if (this.#pending.length === 1 && !this.#committing) setImmediate(() => void this.#commit());
    });
  }

  async #commit(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0, MAX_BATCH);
      this.#committing = this.#write(batch);
      await this.#committing;
    }
    this.#committing = undefined;
  }

  async #write(batch: Pending[]): Promise<void> {
    try {
      this.#settle(batch, await this.#transaction(batch));
    } catch (error) {
      if (batch.length === 1 || error instanceof StoreUnavailableError) {
        for (const p of batch) p.reject(error);
        return;
      }
      for (const p of batch) {
        try {
          this.#settle([p], await this.#transaction([p]));
        } catch (single) {
          p.reject(single);
        }
      }
    }
  }

  /** Resolves the appends stored; refuses those whose token no longer held (nothing of theirs was stored). */
  #settle(batch: readonly Pending[], refused: readonly Refusal[]): void {
    const why = refused.length ? new Map(refused.map((r) => [r.index, r.why])) : undefined;
    for (const [i, p] of batch.entries()) {
      const refusal = why?.get(i);
      if (refusal === undefined) p.resolve();
      else if (refusal === 'exists') p.reject(new RecordExistsError(p.record.id));
      else {
        this.#onRefused(p.madeWith!);
        p.reject(
          refusal === 'origin' ? new OriginNotAllowedError(p.record.origin) : new UnauthenticatedError('revoked'),
        );
      }
    }
  }

  /** The records and their users' totals, in one transaction (durable when it resolves); the ids of those refused. */
  async #transaction(batch: readonly Pending[]): Promise<readonly Refusal[]> {
    const records = batch.map((p) => p.record);
    const madeWith = batch.some((p) => p.madeWith !== undefined) ? batch.map((p) => p.madeWith) : undefined;
    try {
      const refused = await (this.#writer
        ? this.#writer.write(records, madeWith)
        : writeRecords(this.#connection, records, madeWith));
      this.#failing = false;
      return refused;
    } catch (error) {
      if (error instanceof StoreUnavailableError) this.#failing = true;
      throw error;
    }
  }

  /** Commits of records have failed as unavailable since the last that succeeded. */
  get failing(): boolean {
    return this.#failing;
  }

  /**
   * Whether records can be committed again, without one to commit: the probe of what a record
   * writes (probeRecords), committed where records are. Clears `failing` when it succeeds;
   * rejects with StoreUnavailableError when it cannot be made.
   */
  async probe(): Promise<void> {
    try {
      await (this.#writer ? this.#writer.probe() : probeRecords(this.#connection));
      this.#failing = false;
    } catch (error) {
      if (error instanceof StoreUnavailableError) this.#failing = true;
      throw error;
    }
  }

  /** Ends the writer's thread once the commits under way are done. */
  async close(): Promise<void> {
    while (this.#committing) await this.#committing;
    await this.#writer?.close();
  }

  recordOf(userId: string, id: string): Promise<RequestRecord | null> {
    const c = this.#connection;
    return c.read(() => {
      const row = c.statement(ONE).get(id, userId) as RecordRow | undefined;
      return row ? toRecord(row) : null;
    });
  }

  list(userId: string, query: HistoryQuery): Promise<HistoryPage> {
    const c = this.#connection;
    const keptFrom = query.keptFrom ?? '';
    const key = query.keyId;
    if (key !== undefined) {
      return c.read(() => {
        const total = Number((c.statement(KEY_KEPT).get(userId, key, keptFrom) as { total: number }).total);
        const rows = (query.after
          ? c
              .statement(KEY_PAGE_AFTER)
              .all(userId, key, keptFrom, ...bounds(query.after), query.limit + 1, query.offset)
          : c.statement(KEY_PAGE).all(userId, key, keptFrom, query.limit + 1, query.offset)) as unknown as RecordRow[];
        return { total, more: rows.length > query.limit, records: rows.slice(0, query.limit).map(toRecord) };
      });
    }
    return c.read(() => {
      const total = query.keptFrom
        ? Number((c.statement(KEPT).get(userId, keptFrom) as { total: number }).total)
        : ((c.statement(USAGE).get(userId) as { request_count: number } | undefined)?.request_count ?? 0);
      const rows = (query.after
        ? c.statement(PAGE_AFTER).all(userId, keptFrom, ...bounds(query.after), query.limit + 1, query.offset)
        : c.statement(PAGE).all(userId, keptFrom, query.limit + 1, query.offset)) as unknown as RecordRow[];
      return { total, more: rows.length > query.limit, records: rows.slice(0, query.limit).map(toRecord) };
    });
  }

  usageByDay(userId: string, from: string, to: string, keyId?: string): Promise<DayUsage[]> {
    const c = this.#connection;
    return c.read(() =>
      (
        (keyId === undefined
          ? c.statement(BY_DAY).all(userId, from, to)
          : c.statement(KEY_BY_DAY).all(userId, keyId, from, to)) as unknown as DayUsage[]
      ).map((r) => ({
        day: r.day,
        count: Number(r.count),
        cost: Number(r.cost),
      })),
    );
  }

  usageBySource(userId: string, from: string, to: string): Promise<SourceUsage[]> {
    const c = this.#connection;
    return c.read(() =>
      (
        c.statement(BY_SOURCE).all(userId, from, to) as unknown as {
          key_id: string;
          origin: string;
          count: number;
          cost: number;
        }[]
      ).map((r) => ({
        keyId: r.key_id === '' ? null : r.key_id,
        origin: r.origin === '' ? null : r.origin,
        count: Number(r.count),
        cost: Number(r.cost),
      })),
    );
  }

  /** A batch at a time, each its own short transaction: the store is never held for long, nor the event loop. */
  async purgeBefore(day: string): Promise<number> {
    const c = this.#connection;
    const users = await c.read(() =>
      (c.statement(USERS_BEFORE).all(day) as { user_id: string }[]).map((r) => r.user_id),
    );
    let deleted = 0;
    for (const userId of users) {
      for (;;) {
        const changes = Number(await c.write(() => c.statement(PURGE).run(userId, day).changes));
        deleted += changes;
        if (changes < PURGE_BATCH) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return deleted;
  }

  usage(userId: string): Promise<Usage> {
    const c = this.#connection;
    return c.read(() => {
      const row = c.statement(USAGE).get(userId) as
        | { request_count: number; total_cost: number; last_request_at: string | null }
        | undefined;
      return {
        count: row?.request_count ?? 0,
        totalCost: row?.total_cost ?? 0,
        lastAt: row?.last_request_at ? new Date(row.last_request_at) : null,
      };
    });
  }
}

/** A cursor's time (ISO, as stored) twice and its id: PAGE_AFTER's bounds. */
function bounds(after: HistoryPosition): [string, string, string] {
  const at = after.timeMade.toISOString();
  return [at, at, after.id];
}

function toRecord(row: RecordRow): RequestRecord {
  const record = {
    id: row.id,
    userId: row.user_id,
    requestMade: row.request_made,
    timeMade: new Date(row.time_made),
    cost: row.cost,
    ...(row.key_id !== null && { keyId: row.key_id }),
    ...(row.origin !== null && { origin: row.origin }),
  };
  // Records of before the scope was kept have none of it (NULL offset and limit).
  if (row.page_offset === null || row.page_limit === null) return record;
  const search: RecordedSearch = {
    ...(row.state_code !== null && { stateCode: row.state_code }),
    offset: row.page_offset,
    limit: row.page_limit,
    // Written by this store from the contract's vocabularies (records.ts).
    ...(row.levels !== null && { level: row.levels.split(',') as SchoolLevel[] }),
    ...(row.types !== null && { type: row.types.split(',') as TypeFilter[] }),
    ...(row.near_latitude !== null &&
      row.near_longitude !== null && { near: { latitude: row.near_latitude, longitude: row.near_longitude } }),
    ...(row.radius_km !== null && { radiusKm: row.radius_km }),
  };
  return { ...record, search };
}
