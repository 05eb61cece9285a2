// The shape of each collection's documents. Ids are the domain's own (UUID strings), so a
// document is found by the id the API hands out without a second index. The schools' documents
// and the catalog's version are read by the search engines on MongoDB too: their shape is in
// src/mongodb-shared/school-document.ts.
import type { ObjectId } from 'mongodb';
import type { GeoPoint } from '../../domain/catalog/geo.ts';
import type { SchoolLevel, TypeFilter } from '../../domain/catalog/school-kind.ts';
import type { PublishableScope } from '../../domain/accounts/accounts.ports.ts';

export interface UserDocument {
  _id: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
  /** Absent on accounts whose password never changed since versions were kept: 0 (src/domain/accounts/credentials.ts). */
  passwordVersion?: number;
  /** Absent: 0. */
  keysFromVersion?: number;
}

export interface TokenDocument {
  _id: string;
  userId: string;
  /** Absent on tokens written before API keys existed: those are sessions. */
  kind?: 'session' | 'key';
  name?: string | null;
  /** A publishable key's scope (origins and budgets); absent on every other token. */
  publishable?: PublishableScope;
  digest: string;
  hint: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** Absent until the token first authenticates a request. */
  lastUsedAt?: Date | null;
  /** Absent on tokens issued before versions were kept: 0. */
  passwordVersion?: number;
  /** Absent on tokens issued before it was kept: createdAt stands for it. */
  authenticatedAt?: Date;
  /** When the token stopped working (revoked, else expires): the TTL index purges a day later. */
  deadAt: Date;
  /** Issue order: orders tokens created in the same millisecond, as the embedded store's rowid does. */
  seq: ObjectId;
}

/** Where a search looked, as records store it (the field names of the documents written since 1.3). */
export interface RecordedSearchDocument {
  stateCode?: string;
  offset: number;
  limit: number;
  levels?: readonly SchoolLevel[];
  types?: readonly TypeFilter[];
  near?: GeoPoint;
  radiusKm?: number;
}

export interface RequestDocument {
  _id: string;
  userId: string;
  requestMade: string;
  timeMade: Date;
  cost: number;
  /** Where the search looked (RequestRecord.search); absent on records written before it was kept. */
  search?: RecordedSearchDocument;
  /** The API key it was made with; absent for a session token (and on records of before 1.6). */
  keyId?: string;
  /** A publishable key's page origin; absent otherwise. */
  origin?: string;
  /** The UTC day of timeMade (YYYY-MM-DD), for usage per day; absent on records written before it existed. */
  day?: string;
  /** Set until the record is counted in its day's usage (request.store.ts): a record left so is counted by the next read. */
  pending?: true;
  /** While pending: until when the record is its counter's alone (the append's, or a read's that claimed it). Absent on records of before 1.3. */
  lease?: Date;
}

/** A user's usage on one UTC day, kept with each record; `_id` is `<userId>|<day>`. */
export interface UsageDayDocument {
  _id: string;
  userId: string;
  day: string;
  count: number;
  cost: number;
  lastAt: Date;
  /** Records counted here whose own `pending` may not be cleared yet: what makes counting a record twice impossible. */
  applied: string[];
  /**
   * The same count and cost per source (request.store.ts: sourceField): `k<keyId or ->` then, for
   * a publishable key's page, `o<origin in base64url>`; counted in the same update as the day's
   * own. Absent on days counted before 1.6: those count as sessions'.
   */
  sources?: Record<string, { count: number; cost: number }>;
  /** The last batch of the usage migration (usage.migration.ts) added here: a batch done again adds nothing. */
  migrated?: number;
}

/**
 * A user's usage of the days the retention purge folded out of usage_days (older than the
 * retention and the longest chart), in usage_days itself: `_id` is `<userId>|before`, and it has
 * no `day`, so the totals (by user) count it and the chart (by day) does not.
 */
export interface UsageBeforeDocument {
  _id: string;
  userId: string;
  count: number;
  cost: number;
  lastAt: Date;
  /** The last day folded in: days are folded in order, each once. */
  through: string;
}

/** One rate-limit counter (src/stores/mongodb/quota.store.ts); the TTL index deletes it after its window. */
export interface QuotaDocument {
  _id: string;
  hits: number;
  resetAt: Date;
}

/** A one-off data migration (`_id` names it): claimed by one instance at a time, done once `at` is set. */
export interface MigrationDocument {
  _id: string;
  /** When it was completed; absent while it is under way. */
  at?: Date;
  /** The instance that claims it, and until when (renewed with each batch): a claim that lapsed may be taken over. */
  holder?: string;
  until?: Date;
  /** Progress: the batches done, and the last record (_id) of the last one. */
  batches?: number;
  after?: string;
}

/** A link in an e-mail (src/domain/accounts/link.ts), found by the digest of its token. */
export interface LinkDocument {
  _id: string;
  purpose: 'signup' | 'reset' | 'invite';
  email: string;
  userId: string | null;
  passwordHash: string | null;
  digest: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  /** When the link stopped working (used, else expires): the TTL index purges a day later. */
  deadAt: Date;
  /** E-mails that carried it; absent on links of before: 0. */
  mailed?: number;
}

/** Mail not yet delivered (src/domain/mail/mail.service.ts). */
export interface OutboxDocument {
  _id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: Date;
  discardAfter: Date;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  /** Where the text's placeholder takes its link, derived when sent (src/domain/accounts/link.ts); absent without one. */
  link?: { id: string; url: string; secretId: string };
}

export const COLLECTIONS = {
  schools: 'schools',
  users: 'users',
  tokens: 'tokens',
  requests: 'requests',
  catalog: 'catalog',
  usageDays: 'usage_days',
  quotas: 'rate_limits',
  migrations: 'migrations',
  leases: 'leases',
  links: 'links',
  outbox: 'mail_outbox',
} as const;
