// Writing request records: one transaction holds a batch of records and their users' totals,
// overall and per UTC day.
// Used by the record writer's worker thread (record.worker.ts) and, for a store in memory, by
// the request log itself.
import type { RequestRecord } from '../../domain/ports.ts';
import type { Connection } from './connection.ts';
import { transaction } from './database.ts';

const INSERT = `INSERT INTO api_requests (id, user_id, request_made, time_made, cost, state_code, page_offset, page_limit,
  levels, types, near_latitude, near_longitude, radius_km)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const TALLY = `UPDATE users SET request_count = request_count + ?, total_cost = total_cost + ?,
  last_request_at = max(coalesce(last_request_at, ''), ?) WHERE id = ?`;
const TALLY_DAY = `INSERT INTO usage_days (user_id, day, count, cost) VALUES (?, ?, ?, ?)
  ON CONFLICT (user_id, day) DO UPDATE SET count = count + excluded.count, cost = cost + excluded.cost`;

/** The records and their users' totals, in one transaction: durable when it resolves (synchronous=FULL). */
export function writeRecords(c: Connection, records: readonly RequestRecord[]): Promise<void> {
  return c.write(() =>
    transaction(c.db, () => {
      const totals = new Map<string, { count: number; cost: number; last: string }>();
      // Per user and day: "user|YYYY-MM-DD" (neither holds a "|": ids are UUIDs).
      const days = new Map<string, { count: number; cost: number }>();
      for (const record of records) {
        const at = record.timeMade.toISOString();
        const search = record.search;
        c.statement(INSERT).run(
          record.id,
          record.userId,
          record.requestMade,
          at,
          record.cost,
          search?.stateCode ?? null,
          search?.offset ?? null,
          search?.limit ?? null,
          search?.levels?.join(',') ?? null,
          search?.types?.join(',') ?? null,
          search?.near?.latitude ?? null,
          search?.near?.longitude ?? null,
          search?.radiusKm ?? null,
        );
        const t = totals.get(record.userId);
        if (t) {
          t.count++;
          t.cost += record.cost;
          if (at > t.last) t.last = at;
        } else totals.set(record.userId, { count: 1, cost: record.cost, last: at });
        const key = `${record.userId}|${at.slice(0, 10)}`;
        const d = days.get(key);
        if (d) {
          d.count++;
          d.cost += record.cost;
        } else days.set(key, { count: 1, cost: record.cost });
      }
      for (const [userId, t] of totals) c.statement(TALLY).run(t.count, t.cost, t.last, userId);
      for (const [key, d] of days) {
        const [userId, day] = key.split('|') as [string, string];
        c.statement(TALLY_DAY).run(userId, day, d.count, d.cost);
      }
    }),
  );
}
