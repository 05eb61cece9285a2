import type { RequestLog, RequestRecord, Usage } from '../../domain/ports.ts';
import type { Connection } from './connection.ts';
import { transaction } from './database.ts';

interface RecordRow {
  id: string;
  user_id: string;
  request_made: string;
  time_made: string;
  cost: number;
}

const INSERT = 'INSERT INTO api_requests (id, user_id, request_made, time_made, cost) VALUES (?, ?, ?, ?, ?)';
const TALLY = `UPDATE users SET request_count = request_count + 1, total_cost = total_cost + ?,
  last_request_at = max(coalesce(last_request_at, ''), ?) WHERE id = ?`;
const PAGE = `SELECT id, user_id, request_made, time_made, cost FROM api_requests WHERE user_id = ?
  ORDER BY time_made DESC, id DESC LIMIT ? OFFSET ?`;
const USAGE = 'SELECT request_count, total_cost, last_request_at FROM users WHERE id = ?';

export class SqliteRequestLog implements RequestLog {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  append(record: RequestRecord): Promise<void> {
    // One transaction for the record and the user's totals; synchronous=FULL makes the commit
    // durable before this resolves.
    const c = this.#connection;
    return c.write(() =>
      transaction(c.db, () => {
        const at = record.timeMade.toISOString();
        c.statement(INSERT).run(record.id, record.userId, record.requestMade, at, record.cost);
        c.statement(TALLY).run(record.cost, at, record.userId);
      }),
    );
  }

  list(userId: string, offset: number, limit: number): Promise<{ total: number; records: RequestRecord[] }> {
    const c = this.#connection;
    return c.read(() => {
      const total = (c.statement(USAGE).get(userId) as { request_count: number } | undefined)?.request_count ?? 0;
      const rows = c.statement(PAGE).all(userId, limit, offset) as unknown as RecordRow[];
      return { total, records: rows.map(toRecord) };
    });
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

function toRecord(row: RecordRow): RequestRecord {
  return {
    id: row.id,
    userId: row.user_id,
    requestMade: row.request_made,
    timeMade: new Date(row.time_made),
    cost: row.cost,
  };
}
