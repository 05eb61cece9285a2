import type {
  DayUsage,
  HistoryPage,
  HistoryQuery,
  RequestLog,
  RequestRecord,
  SourceUsage,
  Usage,
} from '../../../src/domain/metering/metering.ports.ts';
import { tokenHolds } from '../../../src/domain/accounts/credentials.ts';
import { stillAdmits } from '../../../src/domain/accounts/origins.ts';
import { OriginNotAllowedError, RecordExistsError, UnauthenticatedError } from '../../../src/domain/shared/errors.ts';
import type { MemoryTokenStore } from './tokens.ts';

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Request records and the per-user and per-day counters kept with them, as the adapters keep them
 * (src/stores/sqlite/request.store.ts): totals outlive the records a retention purge deletes.
 */
export class MemoryRequestLog implements RequestLog {
  readonly #records: RequestRecord[] = [];
  readonly #totals = new Map<string, { count: number; cost: number; lastAt: Date | null }>();
  /** `${userId}|${day}` → the day's count and cost. */
  readonly #days = new Map<string, { count: number; cost: number }>();
  /** `${userId}|${day}|${keyId}|${origin}` (empty for none) → the count and cost of that source that day. */
  readonly #sources = new Map<string, { count: number; cost: number }>();

  /** Where append's madeWith is checked: without it, every token holds. */
  readonly #tokens: MemoryTokenStore | undefined;

  constructor(tokens?: MemoryTokenStore) {
    this.#tokens = tokens;
  }

  async append(record: RequestRecord, madeWith?: string): Promise<void> {
    if (madeWith !== undefined && this.#tokens) {
      const token = this.#tokens.current(madeWith);
      const holder = token ? await this.#tokens.holderOf(token.userId) : null;
      if (!token || !holder || token.revokedAt || token.expiresAt <= record.timeMade || !tokenHolds(token, holder))
        throw new UnauthenticatedError('revoked');
      if (!stillAdmits(token.publishable, record.origin)) throw new OriginNotAllowedError(record.origin);
    }
    if (this.#records.some((r) => r.id === record.id)) throw new RecordExistsError(record.id);
    this.#records.push({ ...record });
    const total = this.#totals.get(record.userId) ?? { count: 0, cost: 0, lastAt: null };
    const lastAt = total.lastAt && total.lastAt > record.timeMade ? total.lastAt : record.timeMade;
    this.#totals.set(record.userId, { count: total.count + 1, cost: total.cost + record.cost, lastAt });
    const key = `${record.userId}|${dayOf(record.timeMade)}`;
    const day = this.#days.get(key) ?? { count: 0, cost: 0 };
    this.#days.set(key, { count: day.count + 1, cost: day.cost + record.cost });
    const source = `${key}|${record.keyId ?? ''}|${record.origin ?? ''}`;
    const s = this.#sources.get(source) ?? { count: 0, cost: 0 };
    this.#sources.set(source, { count: s.count + 1, cost: s.cost + record.cost });
  }

  async recordOf(userId: string, id: string): Promise<RequestRecord | null> {
    const found = this.#records.find((r) => r.id === id && r.userId === userId);
    return found ? { ...found } : null;
  }

  /** Newest first, equal times by greater id first; `after` a cursor's position; `keptFrom` the retention's first day. */
  async list(userId: string, query: HistoryQuery): Promise<HistoryPage> {
    const keptFrom = query.keptFrom ?? '';
    const after = query.after;
    const rows = this.#records
      .filter((r) => r.userId === userId && dayOf(r.timeMade) >= keptFrom)
      .filter((r) => query.keyId === undefined || r.keyId === query.keyId)
      .filter((r) => !after || r.timeMade < after.timeMade || (+r.timeMade === +after.timeMade && r.id < after.id))
      .sort((a, b) => b.timeMade.getTime() - a.timeMade.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(query.offset, query.offset + query.limit + 1);
    const total =
      query.keptFrom || query.keyId !== undefined
        ? (await this.usageByDay(userId, keptFrom, '9999-12-31', query.keyId)).reduce((n, d) => n + d.count, 0)
        : (this.#totals.get(userId)?.count ?? 0);
    return { total, more: rows.length > query.limit, records: rows.slice(0, query.limit) };
  }

  async usage(userId: string): Promise<Usage> {
    const total = this.#totals.get(userId);
    return { count: total?.count ?? 0, totalCost: total?.cost ?? 0, lastAt: total?.lastAt ?? null };
  }

  async usageByDay(userId: string, from: string, to: string, keyId?: string): Promise<DayUsage[]> {
    if (keyId !== undefined) {
      const days = new Map<string, DayUsage>();
      for (const s of this.#sourceRows(userId, from, to)) {
        if (s.keyId !== keyId) continue;
        const d = days.get(s.day) ?? { day: s.day, count: 0, cost: 0 };
        days.set(s.day, { day: s.day, count: d.count + s.count, cost: d.cost + s.cost });
      }
      return [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
    }
    return [...this.#days]
      .map(([key, d]) => ({ user: key.slice(0, key.indexOf('|')), day: key.slice(key.indexOf('|') + 1), ...d }))
      .filter((d) => d.user === userId && d.day >= from && d.day <= to)
      .sort((a, b) => (a.day < b.day ? -1 : 1))
      .map(({ day, count, cost }) => ({ day, count, cost }));
  }

  async usageBySource(userId: string, from: string, to: string): Promise<SourceUsage[]> {
    const summed = new Map<string, SourceUsage>();
    for (const { keyId, origin, count, cost } of this.#sourceRows(userId, from, to)) {
      const key = `${keyId}|${origin}`;
      const s = summed.get(key);
      summed.set(key, { keyId, origin, count: (s?.count ?? 0) + count, cost: (s?.cost ?? 0) + cost });
    }
    return [...summed.values()];
  }

  #sourceRows(userId: string, from: string, to: string): (SourceUsage & { day: string })[] {
    return [...this.#sources]
      .map(([key, s]) => {
        const [user, day, keyId, origin] = key.split('|') as [string, string, string, string];
        return { user, day, keyId: keyId || null, origin: origin || null, ...s };
      })
      .filter((s) => s.user === userId && s.day >= from && s.day <= to);
  }

  async purgeBefore(day: string): Promise<number> {
    const kept = this.#records.filter((r) => dayOf(r.timeMade) >= day);
    const deleted = this.#records.length - kept.length;
    this.#records.splice(0, this.#records.length, ...kept);
    return deleted;
  }
}
