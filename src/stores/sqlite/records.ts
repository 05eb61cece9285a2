// Writing request records: one transaction holds a batch of records and their users' totals,
// overall and per UTC day; and the probe readiness asks for while records fail.
// Used by the record writer's worker thread (record.worker.ts) and, for a store in memory, by
// the request log itself.
import { randomUUID } from 'node:crypto';
import { tokenHolds } from '../../domain/accounts/credentials.ts';
import { stillAdmits } from '../../domain/accounts/origins.ts';
import type { RequestRecord } from '../../domain/metering/metering.ports.ts';
import type { PublishableScope, TokenKind } from '../../domain/accounts/accounts.ports.ts';
import type { Connection } from './connection.ts';
import { transaction } from './database.ts';

const INSERT = `INSERT INTO api_requests (id, user_id, request_made, time_made, cost, state_code, page_offset, page_limit,
  levels, types, near_latitude, near_longitude, radius_km, key_id, origin)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO NOTHING`;
const TALLY = `UPDATE users SET request_count = request_count + ?, total_cost = total_cost + ?,
  last_request_at = max(coalesce(last_request_at, ''), ?) WHERE id = ?`;
const TALLY_DAY = `INSERT INTO usage_days (user_id, day, count, cost) VALUES (?, ?, ?, ?)
  ON CONFLICT (user_id, day) DO UPDATE SET count = count + excluded.count, cost = cost + excluded.cost`;
const TALLY_SOURCE = `INSERT INTO usage_sources (user_id, day, key_id, origin, count, cost) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (user_id, day, key_id, origin) DO UPDATE SET count = count + excluded.count, cost = cost + excluded.cost`;

// The token and its account's credential state now (credentials.ts): a password changed since
// the token was remembered voids its session as a revocation does.
const TOKEN = `SELECT t.revoked_at, t.expires_at, t.kind, t.password_version, t.publishable, u.password_version AS holder_password_version,
  u.keys_from_version AS holder_keys_from_version FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ?`;

interface TokenState {
  revoked_at: string | null;
  expires_at: string;
  kind: TokenKind;
  password_version: number;
  /** A publishable key's scope as JSON (its origins: stillAdmits); NULL otherwise. */
  publishable: string | null;
  holder_password_version: number;
  holder_keys_from_version: number;
}

/**
 * The records and their users' totals, in one transaction: durable when it resolves
 * (synchronous=FULL). `madeWith[i]`, when set, is the id of the token record i must have been
 * made with: it is stored only if that token is not revoked, expires after the record's time,
 * holds for its account's password and (a publishable key's record) still lists the record's
 * origin, read in this transaction (RequestLog.append). Resolves to the ids of the records
 * refused so, and why. Each record is counted in its user's totals, day and source (key and origin).
 */
/** A record writeRecords did not store: its token no longer held, or no longer lists the record's origin. */
export interface Refusal {
  readonly id: string;
  /** The record's place in the batch (two of one batch may have one id: a search retried at once). */
  readonly index: number;
  /** `exists`: a record with its id is stored already (its search's Idempotency-Key): nothing written or counted. */
  readonly why: 'revoked' | 'origin' | 'exists';
}

export function writeRecords(
  c: Connection,
  records: readonly RequestRecord[],
  madeWith?: readonly (string | undefined)[],
): Promise<Refusal[]> {
  return c.write(() =>
    transaction(c.db, () => {
      const refused: Refusal[] = [];
      /** Each token asked about: undefined when it is gone, else its revocation and expiry. */
      const tokens = new Map<string, TokenState | undefined>();
      const scopes = new Map<string, PublishableScope | null>();
      const totals = new Map<string, { count: number; cost: number; last: string }>();
      // Per user and day: "user|YYYY-MM-DD" (neither holds a "|": ids are UUIDs).
      const days = new Map<string, { count: number; cost: number }>();
      const sources = new Map<string, { count: number; cost: number }>();
      for (const [i, record] of records.entries()) {
        const at = record.timeMade.toISOString();
        const tokenId = madeWith?.[i];
        if (tokenId !== undefined) {
          if (!tokens.has(tokenId)) tokens.set(tokenId, c.statement(TOKEN).get(tokenId) as TokenState | undefined);
          const token = tokens.get(tokenId);
          if (
            !token ||
            token.revoked_at !== null ||
            token.expires_at <= at ||
            !tokenHolds(
              { kind: token.kind, passwordVersion: token.password_version },
              { passwordVersion: token.holder_password_version, keysFromVersion: token.holder_keys_from_version },
            )
          ) {
            refused.push({ id: record.id, index: i, why: 'revoked' });
            continue;
          }
          if (!stillAdmits(scopeOf(scopes, tokenId, token.publishable), record.origin)) {
            refused.push({ id: record.id, index: i, why: 'origin' });
            continue;
          }
        }
        const search = record.search;
        const written = c
          .statement(INSERT)
          .run(
            record.id,
            record.userId,
            record.requestMade,
            at,
            record.cost,
            search?.stateCode ?? null,
            search?.offset ?? null,
            search?.limit ?? null,
            search?.level?.join(',') ?? null,
            search?.type?.join(',') ?? null,
            search?.near?.latitude ?? null,
            search?.near?.longitude ?? null,
            search?.radiusKm ?? null,
            record.keyId ?? null,
            record.origin ?? null,
          );
        if (Number(written.changes) === 0) {
          refused.push({ id: record.id, index: i, why: 'exists' });
          continue;
        }
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
        // Per user, day, key and origin ('' for none), "\n"-joined: no id, day or origin holds one.
        const source = `${record.userId}\n${at.slice(0, 10)}\n${record.keyId ?? ''}\n${record.origin ?? ''}`;
        const n = sources.get(source);
        if (n) {
          n.count++;
          n.cost += record.cost;
        } else sources.set(source, { count: 1, cost: record.cost });
      }
      for (const [userId, t] of totals) c.statement(TALLY).run(t.count, t.cost, t.last, userId);
      for (const [key, d] of days) {
        const [userId, day] = key.split('|') as [string, string];
        c.statement(TALLY_DAY).run(userId, day, d.count, d.cost);
      }
      for (const [key, n] of sources) {
        const [userId, day, keyId, origin] = key.split('\n') as [string, string, string, string];
        c.statement(TALLY_SOURCE).run(userId, day, keyId, origin, n.count, n.cost);
      }
      return refused;
    }),
  );
}

/** The scope of a token as this batch read it, parsed once. */
function scopeOf(
  scopes: Map<string, PublishableScope | null>,
  tokenId: string,
  json: string | null,
): PublishableScope | null {
  let scope = scopes.get(tokenId);
  if (scope === undefined) {
    scope = json === null ? null : (JSON.parse(json) as PublishableScope);
    scopes.set(tokenId, scope);
  }
  return scope;
}

const PROBE_USER = 'SELECT id FROM users ORDER BY rowid DESC LIMIT 1';
const DAY_ROW = 'SELECT 1 AS found FROM usage_days WHERE user_id = ? AND day = ?';
const PROBE_TALLY = 'UPDATE users SET request_count = request_count + ? WHERE id = ?';
const UNTALLY_DAY = 'UPDATE usage_days SET count = count - ?, cost = cost - ? WHERE user_id = ? AND day = ?';
const DROP_DAY = 'DELETE FROM usage_days WHERE user_id = ? AND day = ?';
const DROP_RECORD = 'DELETE FROM api_requests WHERE id = ?';
const SOURCE_ROW = "SELECT 1 AS found FROM usage_sources WHERE user_id = ? AND day = ? AND key_id = '' AND origin = ''";
const UNTALLY_SOURCE =
  "UPDATE usage_sources SET count = count - ?, cost = cost - ? WHERE user_id = ? AND day = ? AND key_id = '' AND origin = ''";
const DROP_SOURCE = "DELETE FROM usage_sources WHERE user_id = ? AND day = ? AND key_id = '' AND origin = ''";

/**
 * Proves that a record could be committed now: one transaction that writes what a record writes
 * (a row of api_requests and its indexes, the user's totals, the user's day), takes each change
 * back, and commits with the fsync of a record. Its pages are the ones a record dirties, so it
 * fails where records fail (a full disk, a damaged table, a lock held past the budget) and not
 * only where a one-page write would; nothing of it is ever seen (the commit changes no row).
 * Resolves without writing when there is no user: then no record can be asked for either.
 */
export function probeRecords(c: Connection): Promise<void> {
  // At once, as every probe of readiness: a lock held by another process is a 503 now.
  return c.writeAtOnce(() =>
    transaction(c.db, () => {
      const user = c.statement(PROBE_USER).get() as { id: string } | undefined;
      if (!user) return;
      const at = new Date().toISOString();
      const day = at.slice(0, 10);
      const id = `readiness-probe-${randomUUID()}`;
      c.statement(INSERT).run(
        id,
        user.id,
        'readiness probe',
        at,
        0,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      );
      c.statement(PROBE_TALLY).run(1, user.id);
      const hadDay = c.statement(DAY_ROW).get(user.id, day) !== undefined;
      c.statement(TALLY_DAY).run(user.id, day, 1, 0);
      c.statement(DROP_RECORD).run(id);
      c.statement(PROBE_TALLY).run(-1, user.id);
      const hadSource = c.statement(SOURCE_ROW).get(user.id, day) !== undefined;
      c.statement(TALLY_SOURCE).run(user.id, day, '', '', 1, 0);
      if (hadDay) c.statement(UNTALLY_DAY).run(1, 0, user.id, day);
      else c.statement(DROP_DAY).run(user.id, day);
      if (hadSource) c.statement(UNTALLY_SOURCE).run(1, 0, user.id, day);
      else c.statement(DROP_SOURCE).run(user.id, day);
    }),
  );
}
