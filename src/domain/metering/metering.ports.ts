// Metering's ports and entities: the request records of every metered search, the usage
// counters kept with them, and the rate limits' counters.
import type { GeoPoint } from '../catalog/geo.ts';
import type { SchoolLevel, TypeFilter } from '../catalog/school-kind.ts';
import type { HistoryPosition } from './history-cursor.ts';

export interface RequestRecord {
  readonly id: string;
  readonly userId: string;
  readonly requestMade: string;
  readonly timeMade: Date;
  readonly cost: number;
  /** Where a search looked: absent on records stored before it was kept (and on any non-search). */
  readonly search?: RecordedSearch;
  /** The API key (secret or publishable) the request was made with; absent for a session token. */
  readonly keyId?: string;
  /** The page a publishable key's request came from (origins.ts); absent without one. */
  readonly origin?: string;
}

/**
 * What tells two searches with the same words apart in the history (trequestmade holds the
 * words): every parameter it gave besides them, offset and limit as used (defaults included).
 * The filters are absent when the search had none, and on records stored before they were kept.
 */
export interface RecordedSearch {
  readonly stateCode?: string;
  readonly offset: number;
  readonly limit: number;
  readonly level?: readonly SchoolLevel[];
  readonly type?: readonly TypeFilter[];
  readonly near?: GeoPoint;
  readonly radiusKm?: number;
}

export interface Usage {
  readonly count: number;
  readonly totalCost: number;
  readonly lastAt: Date | null;
}

/** One calendar day (UTC) of a user's metered requests. */
export interface DayUsage {
  /** YYYY-MM-DD. */
  readonly day: string;
  readonly count: number;
  readonly cost: number;
}

/**
 * A day's (or a period's) requests through one source: the API key (null: session tokens) and,
 * for a publishable key, the page's origin (null: none).
 */
export interface SourceUsage {
  readonly keyId: string | null;
  readonly origin: string | null;
  readonly count: number;
  readonly cost: number;
}

/** Which page of a user's history, newest first. */
export interface HistoryQuery {
  /** Records skipped after `after` (or from the newest). */
  readonly offset: number;
  readonly limit: number;
  /** The page starts right after this record (keyset paging: the page's cost does not grow with its depth). */
  readonly after?: HistoryPosition | undefined;
  /** The first UTC day (YYYY-MM-DD) kept by the retention policy: older records are neither listed nor counted. Default: all. */
  readonly keptFrom?: string | undefined;
  /** Only the records made with this API key (RequestRecord.keyId); `total` counts those. */
  readonly keyId?: string | undefined;
}

export interface HistoryPage {
  /** How many records the user has (from `keptFrom` on): read from the counters, not counted. */
  readonly total: number;
  readonly records: RequestRecord[];
  /** True when older records follow the page. */
  readonly more: boolean;
}

/**
 * Request records and the per-user counters kept with them (totals, and per UTC day), so that
 * no read scans a user's whole history. Counters equal the records: a store writes them in the
 * record's transaction, or (MongoDB, without one) counts each record idempotently and finishes,
 * at the next read, the counting of a record whose append stopped half-way.
 */
export interface RequestLog {
  /**
   * Resolves only once the record is durable: a crash after it cannot lose the record. Once it
   * is, append resolves, whatever befalls the counters after (they are finished later): a
   * rejection means the record is not stored, so a client's retry is not billed twice. With
   * `madeWith` (a token's id), the record is stored only if that token is live when it commits
   * (not revoked, expiring after the record's timeMade, holding for its account's password as it
   * is then: credentials.ts, and listing the record's origin if it is a publishable key's:
   * origins.ts, stillAdmits); otherwise nothing is stored and append
   * rejects with UnauthenticatedError('revoked') (OriginNotAllowedError when the token holds
   * but no longer lists the origin): a request authenticated by a remembered token
   * (TokenStore.remembered) is metered and answered only if its token still holds. When a
   * record with this record's id is stored already (a search retried with its Idempotency-Key:
   * search.service.ts), nothing is stored or counted and append rejects with RecordExistsError.
   */
  append(record: RequestRecord, madeWith?: string): Promise<void>;
  /** The user's record with this id, when it is stored (and kept): a retried search's first record. */
  recordOf(userId: string, id: string): Promise<RequestRecord | null>;
  /** A page of the user's records, newest first (equal times: greater id first), read by an index in O(offset + limit). */
  list(userId: string, query: HistoryQuery): Promise<HistoryPage>;
  usage(userId: string): Promise<Usage>;
  /**
   * The user's records counted per UTC day from `from` to `to` (YYYY-MM-DD, both included),
   * oldest first; days without one are left out. With `keyId`, only that key's.
   */
  usageByDay(userId: string, from: string, to: string, keyId?: string): Promise<DayUsage[]>;
  /**
   * The user's records from `from` to `to` counted per source (key and origin), read from
   * counters kept per day and source: at most a few hundred rows a day, never the records.
   */
  usageBySource(userId: string, from: string, to: string): Promise<SourceUsage[]>;
  /**
   * Deletes every user's records of UTC days before `day` (the retention policy); returns how
   * many. The usage counters stay: totals and the per-day chart still count what was made.
   * Idempotent, and safe to run from every instance at once.
   */
  purgeBefore(day: string): Promise<number>;
  /**
   * Gets ready to commit records before the first one is appended (the embedded store starts
   * its writer thread), so that a server's first search does not wait for that; optional.
   */
  warmUp?(): void;
}

/** A window's count, as a quota sees it. */
export interface QuotaWindow {
  readonly hits: number;
  /** When the window ends (and the count starts again from 0). */
  readonly resetAt: Date;
}

/**
 * The rate limits' counters, shared by every API process on the store: one window per key,
 * starting at its first hit and lasting `windowMs`. Every call is one atomic step on the store.
 */
export interface QuotaCounter {
  /** Counts a hit in the key's window (a new one when there is none, or it is over); the window after it. */
  hit(key: string, windowMs: number): Promise<QuotaWindow>;
  /** Takes a hit back (a request that turned out not to count), when its window is still on. */
  unhit(key: string): Promise<void>;
  /** The key's window now, undefined when none is on. */
  get(key: string): Promise<QuotaWindow | undefined>;
  reset(key: string): Promise<void>;
}
