// The caller's own account and request history. Every read is keyed by the caller's user id,
// taken from the authenticated token: there is no parameter that could name another user.
import type { Principal } from '../accounts/accounts.ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { DayUsage, RequestLog, RequestRecord, SourceUsage, Usage } from './metering.ports.ts';
import type { TokenStore, UserStore } from '../accounts/accounts.ports.ts';
import { UnauthenticatedError } from '../shared/errors.ts';
import { decodeCursor, encodeCursor } from './history-cursor.ts';
import { KEEP_EVERYTHING, type RetentionPolicy } from './retention.ts';

const DAY_MS = 86_400_000;

/** A period's requests split by the key they came through (null: sessions) and by page origin (null: none). */
export interface UsageSplit {
  readonly byKey: readonly { readonly keyId: string | null; readonly count: number; readonly cost: number }[];
  readonly byOrigin: readonly { readonly origin: string | null; readonly count: number; readonly cost: number }[];
}

export interface AccountView {
  readonly userId: string;
  readonly email: string;
  readonly createdAt: Date;
  readonly usage: Usage;
  readonly activeTokens: number;
}

export interface HistoryView {
  readonly total: number;
  readonly records: RequestRecord[];
  readonly nextCursor: string | null;
}

export class AccountService {
  readonly #users: UserStore;
  readonly #tokens: TokenStore;
  readonly #requests: RequestLog;
  readonly #clock: Clock;
  readonly #retention: RetentionPolicy;

  constructor(deps: {
    users: UserStore;
    tokens: TokenStore;
    requests: RequestLog;
    clock: Clock;
    retention?: RetentionPolicy;
  }) {
    this.#retention = deps.retention ?? KEEP_EVERYTHING;
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#requests = deps.requests;
    this.#clock = deps.clock;
  }

  async account(principal: Principal): Promise<AccountView> {
    const user = await this.#users.findById(principal.userId);
    // A token outliving its user (deleted by an operator) authenticates nobody.
    if (!user) throw new UnauthenticatedError('unknown');
    const [usage, tokens] = await Promise.all([
      this.#requests.usage(user.id),
      this.#tokens.listLive(user.id, this.#clock.now()),
    ]);
    return { userId: user.id, email: user.email, createdAt: user.createdAt, usage, activeTokens: tokens.length };
  }

  /** A page of the caller's history, newest first, and the cursor of the page after it (null at the oldest record). */
  async history(
    principal: Principal,
    page: { offset: number; limit: number; cursor?: string | undefined; keyId?: string | undefined },
  ): Promise<HistoryView> {
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const keptFrom = this.#retention.keptFrom(this.#clock.now());
    const found = await this.#requests.list(principal.userId, {
      offset: page.offset,
      limit: page.limit,
      after,
      keptFrom,
      keyId: page.keyId,
    });
    const last = found.records.at(-1);
    return { total: found.total, records: found.records, nextCursor: found.more && last ? encodeCursor(last) : null };
  }

  /**
   * The last `days` UTC days, today included, oldest first, every day present (zeros where none),
   * with `keyId` that key's requests only; and the same period split by key and by origin.
   */
  async usageByDay(
    principal: Principal,
    days: number,
    keyId?: string,
  ): Promise<{ from: string; to: string; days: DayUsage[] } & UsageSplit> {
    const today = Date.parse(`${this.#clock.now().toISOString().slice(0, 10)}T00:00:00.000Z`);
    const all = Array.from({ length: days }, (_, i) =>
      new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
    );
    const from = all[0]!;
    const to = all[all.length - 1]!;
    const [perDay, sources] = await Promise.all([
      this.#requests.usageByDay(principal.userId, from, to, keyId),
      this.#requests.usageBySource(principal.userId, from, to),
    ]);
    const found = new Map(perDay.map((d) => [d.day, d]));
    const mine = keyId === undefined ? sources : sources.filter((s) => s.keyId === keyId);
    return { from, to, days: all.map((day) => found.get(day) ?? { day, count: 0, cost: 0 }), ...splitUsage(mine) };
  }
}

/** Sources summed by key and by origin, most requests first (ties: by name, so the order is stable). */
export function splitUsage(sources: readonly SourceUsage[]): UsageSplit {
  const sum = <K>(key: (s: SourceUsage) => K): { key: K; count: number; cost: number }[] => {
    const totals = new Map<K, { key: K; count: number; cost: number }>();
    for (const s of sources) {
      const k = key(s);
      const t = totals.get(k);
      if (t) {
        t.count += s.count;
        t.cost += s.cost;
      } else totals.set(k, { key: k, count: s.count, cost: s.cost });
    }
    return [...totals.values()].sort((a, b) => b.count - a.count || String(a.key).localeCompare(String(b.key)));
  };
  const byKey = sum((s) => s.keyId).map(({ key, count, cost }) => ({ keyId: key, count, cost }));
  const byOrigin = sum((s) => s.origin).map(({ key, count, cost }) => ({ origin: key, count, cost }));
  return { byKey, byOrigin };
}
