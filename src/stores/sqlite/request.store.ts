import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { RequestLog, RequestRecord, Usage } from '../../domain/ports.ts';
import { transaction } from './database.ts';
import { guarded } from './errors.ts';

interface RecordRow {
  id: string;
  user_id: string;
  request_made: string;
  time_made: string;
  cost: number;
}

export class SqliteRequestLog implements RequestLog {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #tally: StatementSync;
  readonly #page: StatementSync;
  readonly #usage: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#insert = db.prepare(
      'INSERT INTO api_requests (id, user_id, request_made, time_made, cost) VALUES (?, ?, ?, ?, ?)',
    );
    this.#tally = db.prepare(
      `UPDATE users SET request_count = request_count + 1, total_cost = total_cost + ?,
         last_request_at = max(coalesce(last_request_at, ''), ?) WHERE id = ?`,
    );
    this.#page = db.prepare(
      `SELECT id, user_id, request_made, time_made, cost FROM api_requests WHERE user_id = ?
       ORDER BY time_made DESC, id DESC LIMIT ? OFFSET ?`,
    );
    this.#usage = db.prepare('SELECT request_count, total_cost, last_request_at FROM users WHERE id = ?');
  }

  append(record: RequestRecord): Promise<void> {
    // One transaction for the record and the user's totals; synchronous=FULL makes the commit
    // durable before this resolves.
    return guarded(() =>
      transaction(this.#db, () => {
        const at = record.timeMade.toISOString();
        this.#insert.run(record.id, record.userId, record.requestMade, at, record.cost);
        this.#tally.run(record.cost, at, record.userId);
      }),
    );
  }

  list(userId: string, offset: number, limit: number): Promise<{ total: number; records: RequestRecord[] }> {
    return guarded(() => {
      const total = (this.#usage.get(userId) as { request_count: number } | undefined)?.request_count ?? 0;
      const rows = this.#page.all(userId, limit, offset) as unknown as RecordRow[];
      return { total, records: rows.map(toRecord) };
    });
  }

  usage(userId: string): Promise<Usage> {
    return guarded(() => {
      const row = this.#usage.get(userId) as
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

function toRecord(row: RecordRow): RequestRecord {
  return {
    id: row.id,
    userId: row.user_id,
    requestMade: row.request_made,
    timeMade: new Date(row.time_made),
    cost: row.cost,
  };
}
