// Small, readable test data. Ids are UUIDs (what the domain makes) whose last group is the
// number given, so that id order is number order; times have milliseconds, so that a store
// that drops them fails.
import type { CatalogSchool, School, SchoolDraft } from '../../src/domain/catalog/catalog.ports.ts';
import type { RequestRecord } from '../../src/domain/metering/metering.ports.ts';
import type { TokenRecord, User } from '../../src/domain/accounts/accounts.ports.ts';
import { draftSchool, type SchoolInput } from '../../src/domain/catalog/school-draft.ts';
import { tokenDigest } from '../../src/domain/accounts/token.ts';

const USERS = 1;
const TOKENS = 2;
const RECORDS = 3;

export function uuid(group: number, n: number): string {
  return `${group.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** The suite's reference instant; every other time is an offset from it. */
// In the future, with milliseconds: MongoDB's TTL monitor (every 60 s) deletes tokens dead for a
// day by the server's clock, and would otherwise take the suite's tokens in the middle of a test.
export const T0 = new Date('2100-03-01T12:00:00.123Z');

export function at(offsetMs: number): Date {
  return new Date(T0.getTime() + offsetMs);
}

export const SECOND = 1000;
export const HOUR = 3600 * SECOND;

export function userId(n: number): string {
  return uuid(USERS, n);
}

export function user(n: number, overrides: Partial<User> = {}): User {
  return {
    id: userId(n),
    email: `user${n}@example.com`,
    passwordHash: `$argon2id$v=19$m=1024,t=1,p=1$salt${n}$hash${n}`,
    createdAt: at(-HOUR + n),
    passwordVersion: 0,
    keysFromVersion: 0,
    ...overrides,
  };
}

export function tokenId(n: number): string {
  return uuid(TOKENS, n);
}

/** A token of `owner`, issued at `createdAt` (default T0) and valid for an hour unless told. */
export function token(
  n: number,
  owner: string,
  times: Partial<
    Pick<
      TokenRecord,
      'createdAt' | 'expiresAt' | 'revokedAt' | 'lastUsedAt' | 'kind' | 'name' | 'passwordVersion' | 'authenticatedAt'
    >
  > = {},
): TokenRecord {
  const createdAt = times.createdAt ?? T0;
  const kind = times.kind ?? 'session';
  return {
    id: tokenId(n),
    userId: owner,
    kind,
    name: times.name ?? (kind === 'key' ? `key ${n}` : null),
    lastUsedAt: times.lastUsedAt ?? null,
    digest: tokenDigest(`ssk_token-${n}`),
    hint: `ssk_${String(n).padStart(4, '0')}`,
    createdAt,
    expiresAt: times.expiresAt ?? new Date(createdAt.getTime() + HOUR),
    revokedAt: times.revokedAt ?? null,
    passwordVersion: times.passwordVersion ?? 0,
    authenticatedAt: times.authenticatedAt ?? createdAt,
  };
}

export function recordId(n: number): string {
  return uuid(RECORDS, n);
}

export function record(n: number, owner: string, timeMade: Date, cost = 1): RequestRecord {
  return { id: recordId(n), userId: owner, requestMade: `search_schools:query ${n}`, timeMade, cost };
}

/** A draft as the importer makes it; the id comes from `key` so that a renamed school keeps it. */
export function school(
  name: string,
  more: Partial<Omit<SchoolInput, 'schoolname'>> & { key?: string } = {},
): SchoolDraft {
  const { key, ...rest } = more;
  const result = draftSchool({
    city: 'Springfield',
    stateprovince: 'MA',
    ...rest,
    schoolname: name,
    sourceKey: key ?? `test:${name}|${rest.city ?? 'Springfield'}|${rest.stateprovince ?? 'MA'}`,
  });
  if (!result.ok) throw new Error(`test school "${name}" is not valid: ${result.reason}`);
  return result.draft;
}

/** What findById (and the School part of a hit) returns for a draft: the location fields only when known. */
export function stored(d: SchoolDraft): School {
  const { aliases: _aliases, prominence: _prominence, sourceKey: _sourceKey, ...school } = d;
  return school;
}

/** What readCatalog hands back for a draft: everything but its source key, which stores keep to themselves. */
export function catalogued(d: SchoolDraft): CatalogSchool {
  const { sourceKey: _sourceKey, ...school } = d;
  return school;
}
