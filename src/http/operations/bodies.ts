// The contract's shapes of what the domain answers: one function per body, so that handlers stay
// one call and one reply each.
import type * as api from '../../../generated/types.gen.ts';
import type { AccountView, UsageSplit } from '../../domain/metering/account.service.ts';
import type { IssuedToken } from '../../domain/accounts/accounts.ports.ts';
import type { IssuedKey } from '../../domain/accounts/keys.service.ts';
import type { RequestRecord } from '../../domain/metering/metering.ports.ts';
import type { School, SchoolRecord } from '../../domain/catalog/catalog.ports.ts';
import type { PublishableScope, TokenRecord } from '../../domain/accounts/accounts.ports.ts';
import type { SearchOutcome } from '../../domain/search/search.service.ts';

/** Tokens and a user's own data must not be kept by browsers or shared caches. */
export const NO_STORE = { 'Cache-Control': 'no-store' };

/** `withProof`: the login asked for its device proof in the body (a client without cookies). */
export function tokenBody(t: IssuedToken, withProof = false): api.Token {
  return {
    userId: t.userId,
    token: t.value,
    expires_in: t.expiresIn,
    token_type: 'Bearer',
    expires_at: t.expiresAt.toISOString(),
    token_id: t.tokenId,
    session_expires_at: t.sessionExpiresAt.toISOString(),
    ...(withProof && t.deviceProof ? { device_proof: t.deviceProof } : {}),
  };
}

export function keyBody({ record, value }: IssuedKey): api.ApiKey {
  return {
    token_id: record.id,
    key_type: record.publishable ? 'publishable' : 'secret',
    ...(record.publishable && { publishable: publishableBody(record.publishable) }),
    name: record.name ?? '',
    token: value,
    token_type: 'Bearer',
    hint: record.hint,
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt.toISOString(),
  };
}

/** A publishable key's scope in the contract's names. */
export function publishableBody(scope: PublishableScope): api.PublishableSettings {
  return {
    origins: [...scope.origins],
    searches_per_minute: scope.perMinute,
    searches_per_day: scope.perDay,
    visitor_searches_per_minute: scope.perVisitorPerMinute,
  };
}

export function recordBody(r: RequestRecord): api.ApiRequest {
  const body: api.ApiRequest = {
    tid: r.id,
    trequestmade: r.requestMade,
    ttimemade: r.timeMade.toISOString(),
    trequestcost: r.cost,
  };
  const search = r.search;
  if (search) {
    if (search.stateCode !== undefined) body.stateCode = search.stateCode as api.StateCode;
    body.offset = search.offset;
    body.limit = search.limit;
    if (search.level !== undefined) body.level = [...search.level];
    if (search.type !== undefined) body.type = [...search.type];
    if (search.near !== undefined) body.near = `${degrees(search.near.latitude)},${degrees(search.near.longitude)}`;
    if (search.radiusKm !== undefined) body.radius_km = search.radiusKm;
  }
  if (r.keyId !== undefined) body.key_id = r.keyId;
  if (r.origin !== undefined) body.origin = r.origin;
  return body;
}

/**
 * A coordinate as the contract writes it: plain decimals, never an exponent (String(1e-7) is
 * "1e-7"), to 7 places (about a centimetre), trailing zeros dropped.
 */
function degrees(value: number): string {
  return value.toFixed(7).replace(/\.?0+$/, '');
}

export function tokenListBody(t: TokenRecord & { current: boolean }): api.TokenInfo {
  return {
    token_id: t.id,
    kind: t.kind,
    ...(t.kind === 'key' && { key_type: t.publishable ? ('publishable' as const) : ('secret' as const) }),
    ...(t.publishable && { publishable: publishableBody(t.publishable) }),
    name: t.name,
    hint: t.hint,
    created_at: t.createdAt.toISOString(),
    expires_at: t.expiresAt.toISOString(),
    last_used_at: t.lastUsedAt?.toISOString() ?? null,
    current: t.current,
  };
}

/** A usage split in the contract's names (DailyUsage.by_key, by_origin). */
export function usageSplitBody(split: UsageSplit): Pick<api.DailyUsage, 'by_key' | 'by_origin'> {
  return {
    by_key: split.byKey.map((k) => ({ key_id: k.keyId, request_count: k.count, total_cost: k.cost })),
    by_origin: split.byOrigin.map((o) => ({ origin: o.origin, request_count: o.count, total_cost: o.cost })),
  };
}

/** The school's logo, or the address of its generated monogram. */
const imageUrlOf = (school: School, publicBaseUrl: string): string =>
  school.imageUrl ?? `${publicBaseUrl}/images/schools/${school.id}.svg`;

/** A search's `requestresult`: its page of schools (its `apirequest` is recordBody's). */
export function searchResultBody(
  outcome: Pick<SearchOutcome, 'total' | 'hits'>,
  offset: number,
  limit: number,
  publicBaseUrl: string,
): api.SearchResult {
  const total = outcome.total;
  const schools: api.School[] = [];
  for (const { school: s, score, distanceKm } of outcome.hits) {
    // Field by field in the contract's order, the optional ones only when known (the contract
    // has them absent, never null): the keys and order a literal of conditional spreads gives,
    // without the temporary object each spread makes, eight per school.
    const school = {
      schoolid: s.id,
      schoolname: s.name,
      stateprovince: s.state as api.StateCode,
      city: s.city,
      image_url: imageUrlOf(s, publicBaseUrl),
    } as api.School;
    if (s.address !== undefined) school.address = s.address;
    if (s.postalCode !== undefined) school.postal_code = s.postalCode;
    if (s.latitude !== undefined && s.longitude !== undefined) {
      school.latitude = s.latitude;
      school.longitude = s.longitude;
    }
    if (s.level !== undefined) school.level = s.level;
    if (s.lowestGrade !== undefined) school.lowest_grade = s.lowestGrade;
    if (s.highestGrade !== undefined) school.highest_grade = s.highestGrade;
    if (s.type !== undefined) school.type = s.type;
    if (s.tags !== undefined) school.tags = s.tags.slice();
    // Last, as ever: a literal above with these two would put them before the optional ones.
    school.similarity_score = score;
    school.total_count = total;
    if (distanceKm !== undefined) school.distance_km = distanceKm;
    schools.push(school);
  }
  return { total_count: total, offset, limit, schools };
}

export function schoolRecordBody(r: SchoolRecord, publicBaseUrl: string): api.SchoolRecord {
  return {
    schoolid: r.id,
    schoolname: r.name,
    stateprovince: r.state as api.StateCode,
    city: r.city,
    image_url: imageUrlOf(r, publicBaseUrl),
    // Only the known ones: the contract has them absent, never null, when unknown.
    ...(r.address === undefined ? {} : { address: r.address }),
    ...(r.postalCode === undefined ? {} : { postal_code: r.postalCode }),
    ...(r.latitude === undefined || r.longitude === undefined ? {} : { latitude: r.latitude, longitude: r.longitude }),
    ...(r.level === undefined ? {} : { level: r.level }),
    ...(r.lowestGrade === undefined ? {} : { lowest_grade: r.lowestGrade }),
    ...(r.highestGrade === undefined ? {} : { highest_grade: r.highestGrade }),
    ...(r.type === undefined ? {} : { type: r.type }),
    ...(r.tags === undefined ? {} : { tags: [...r.tags] }),
    aliases: [...r.aliases],
    source_ids: [...r.sourceIds],
    updated_at: r.updatedAt.toISOString(),
  };
}

export function accountBody(view: AccountView): api.Account {
  return {
    userId: view.userId,
    email: view.email,
    created_at: view.createdAt.toISOString(),
    usage: {
      request_count: view.usage.count,
      total_cost: view.usage.totalCost,
      last_request_at: view.usage.lastAt?.toISOString() ?? null,
    },
    active_tokens: view.activeTokens,
  };
}
