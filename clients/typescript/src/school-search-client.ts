// The official client: credentials (or an existing token) once, then typed calls; the token is
// obtained, cached, renewed and re-obtained after a 401 without the caller's code knowing.
// Requests and responses are checked by the generated SDK's zod validators; a refused request
// throws the server's own words (request-check.ts). A publishable key (`spk_…`) is a credential
// too: a web page's, for searches and school records only.
import { createClient, type Client } from '../../../generated/client/index.ts';
import {
  changePassword,
  createApiKey,
  createPublishableKey,
  fetchMyData,
  fetchMyRequests,
  fetchMyUsage,
  fetchSchoolSearch,
  getSchool,
  listMyTokens,
  revokeCurrentToken,
  revokeMyToken,
  rotateApiKey,
  updateApiKey,
} from '../../../generated/sdk.gen.ts';
import type * as api from '../../../generated/types.gen.ts';
import { zDeviceProof, zLimit, zOffset } from '../../../generated/zod.gen.ts';
import { SchoolSearchApiError, unwrap, type DataOf, type SdkResult } from './api-error.ts';
import { bearer, keyParameter, TokenKeeper, type ClientClock } from './token-keeper.ts';

interface CommonOptions {
  /** Where the API is, e.g. `https://api.example.com` (no `/v1`). */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Rotate the token this many seconds before it expires. Default 60. */
  renewBeforeSeconds?: number;
  /** Time source for expiry; tests pass one they can move. Default: the system clock. */
  clock?: ClientClock;
}

/** E-mail and password: the client logs in itself and can always log in again. An initial
 * `token` may be given too, and is used until the server refuses it. */
interface CredentialOptions extends CommonOptions {
  email: string;
  password: string;
  token?: string;
  apiKey?: string;
  publishableKey?: undefined;
  publishableKeyIn?: undefined;
  /**
   * The `deviceProof` of an earlier client for this account (read it from `client.deviceProof`
   * or `onDeviceProof` and keep it, like a cookie), sent with the first login. Default: none
   * (an empty proof, which asks the server for one).
   */
  deviceProof?: string;
  /** Called with each new device proof a login's answer carries: where a long-lived program persists it. */
  onDeviceProof?: (proof: string) => void;
}

/** An existing (typically long-lived) token — the "API key" of the interface spec. Used as is:
 * its lifetime is unknown, so it is never renewed, and a 401 reaches the caller. */
interface TokenOptions extends CommonOptions {
  token?: string;
  /** Alias of `token`, for the interface spec's field name. */
  apiKey?: string;
  publishableKey?: undefined;
  publishableKeyIn?: undefined;
  email?: undefined;
  password?: undefined;
  deviceProof?: undefined;
  onDeviceProof?: undefined;
}

/**
 * A publishable key (`spk_…`, from `createPublishableKey` or the dashboard), for a web page of one
 * of the key's origins: `searchSchools`, `searchAll` and `getSchool` work, every other operation
 * is the server's 403 `publishable-key-not-allowed`. Never renewed, like an API key.
 */
interface PublishableKeyOptions extends CommonOptions {
  publishableKey: string;
  /**
   * Where the key goes: `query` (default) as the `key` parameter, so that a page's search is a
   * simple CORS request with no preflight; `header` as `Authorization: Bearer spk_…`.
   */
  publishableKeyIn?: 'query' | 'header';
  token?: undefined;
  apiKey?: undefined;
  email?: undefined;
  password?: undefined;
  deviceProof?: undefined;
  onDeviceProof?: undefined;
}

export type SchoolSearchClientOptions = CredentialOptions | TokenOptions | PublishableKeyOptions;

/** What `createPublishableKey` takes. Budgets left out are the server's defaults (the account's quota). */
export interface PublishableKeyParams {
  name: string;
  /** The pages the key works from: `https://www.example.org`, `https://*.example.org`, `http://localhost:5173`. */
  origins: readonly string[];
  searchesPerMinute?: number;
  searchesPerDay?: number;
  /** Each visitor's share a minute (one client address), at most `searchesPerMinute`. */
  visitorSearchesPerMinute?: number;
  /** 1 to 3650 days; default 365. */
  expiresInDays?: number;
  currentPassword?: string;
}

/** What `updateApiKey` changes; what is not given stays. Origins and budgets: publishable keys only. */
export interface ApiKeyChanges {
  name?: string;
  /** The key's new list of origins (it replaces the old one). */
  origins?: readonly string[];
  searchesPerMinute?: number;
  searchesPerDay?: number;
  visitorSearchesPerMinute?: number;
}

/** A point in decimal degrees (WGS 84): latitude −90 to 90, longitude −180 to 180. */
export interface GeoPoint {
  latitude: number;
  longitude: number;
}

export interface SearchParams {
  query: string;
  /**
   * Makes a retry of this search free: sent again with the same key, the search answers with the
   * first one's request record (`apirequest`) and is metered once. Any 1 to 255 visible ASCII
   * characters, one per search you mean to send (`crypto.randomUUID()` does). Not for `searchAll`.
   */
  idempotencyKey?: string;
  /**
   * A `StateCode`, upper or lower case (`'TX'`, `'tx'`; the API takes any case). A closed set, so
   * an unknown code is a type error; the zod check refuses one before sending too.
   */
  stateCode?: api.StateCode | Lowercase<api.StateCode>;
  /** Only schools of this level, or of any of these levels. */
  level?: api.SchoolLevel | readonly api.SchoolLevel[];
  /** Only schools of this type, or of any of these types (`charter`: public charter schools). */
  type?: api.SchoolTypeFilter | readonly api.SchoolTypeFilter[];
  /**
   * Equally good matches nearest this point first, each school with its `distance_km`: a
   * `{ latitude, longitude }`, or the contract's `'<lat>,<lon>'` text as is.
   */
  near?: GeoPoint | string;
  /** With `near`: only schools within this many kilometres of it. */
  radiusKm?: number;
  offset?: number;
  limit?: number;
}

/** What `searchAll` takes: a search without its page. */
export type SearchAllParams = Omit<SearchParams, 'offset' | 'limit' | 'idempotencyKey'>;

const PAGE_SIZE = zLimit.unwrap().maxValue ?? 25;
const MAX_OFFSET = zOffset.unwrap().maxValue ?? Number.POSITIVE_INFINITY;

export class SchoolSearchClient {
  readonly #client: Client;
  readonly #keeper: TokenKeeper;
  /** Send the publishable key as the `key` query parameter where an operation takes one. */
  readonly #keyInQuery: boolean;

  constructor(options: SchoolSearchClientOptions) {
    const publishable = pickPublishable(options);
    const token = publishable ?? pickToken(options.token, options.apiKey);
    const credentials = pickCredentials(options.email, options.password);
    if (token === undefined && credentials === undefined) {
      throw new TypeError('SchoolSearchClient needs either email and password, a token (apiKey), or a publishableKey.');
    }
    this.#keyInQuery = publishable !== undefined && (options.publishableKeyIn ?? 'query') === 'query';
    if (options.deviceProof !== undefined && !zDeviceProof.safeParse(options.deviceProof).success) {
      throw new TypeError(
        'SchoolSearchClient: `deviceProof` is a string of at most 100 characters, as a login answered it.',
      );
    }
    this.#client = createClient({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.#keeper = new TokenKeeper({
      client: this.#client,
      credentials,
      token,
      renewBeforeSeconds: options.renewBeforeSeconds ?? 60,
      clock: options.clock ?? { now: () => new Date() },
      deviceProof: options.deviceProof,
      onDeviceProof: options.onDeviceProof,
    });
  }

  /**
   * The device proof of this client's last login (or the one it was given): it keeps the client's
   * logins out of the all-clients ceiling on failed logins when strangers guess at the account.
   * Undefined until a login answers with one. Keep it to pass as `deviceProof` to a later client.
   */
  get deviceProof(): string | undefined {
    return this.#keeper.deviceProof;
  }

  /** One page of schools matching `query`. Each call is metered (one request record). */
  searchSchools(params: SearchParams): Promise<api.SchoolSearchResponse> {
    const query = searchQuery(params);
    const key = params.idempotencyKey;
    const headers = key === undefined ? {} : { headers: { 'Idempotency-Key': key } };
    return this.#authed((auth) => fetchSchoolSearch({ client: this.#client, auth, query, ...headers }), KEY_PARAMETER);
  }

  /** One school's whole record, by its `schoolid` (from a search). Not metered; an unknown id is a 404. */
  getSchool(schoolId: string): Promise<api.SchoolRecord> {
    return this.#authed((auth) => getSchool({ client: this.#client, auth, path: { schoolId } }), KEY_PARAMETER);
  }

  /** Every matching school, once each, fetching pages of 25 as the loop asks for them. Every
   * page is a metered search. Stops with an error where the API's deep-paging guard begins. */
  async *searchAll(params: SearchAllParams): AsyncGenerator<api.School, void, undefined> {
    for (let offset = 0; ; ) {
      if (offset > MAX_OFFSET) {
        throw new RangeError(
          `More than ${MAX_OFFSET} schools match "${params.query}"; narrow the query to see the rest.`,
        );
      }
      const { schools, total_count } = (await this.searchSchools({ ...params, offset, limit: PAGE_SIZE }))
        .requestresult;
      yield* schools;
      offset += schools.length;
      // An empty page also ends it: schools deleted between pages must not make this spin.
      if (schools.length === 0 || offset >= total_count) return;
    }
  }

  fetchMyData(): Promise<api.Account> {
    return this.#authed((auth) => fetchMyData({ client: this.#client, auth }));
  }

  /**
   * The caller's request history, newest first; `cursor` (a page's `next_cursor`) continues after
   * that page; `keyId` (a key's `token_id`) keeps only the requests made with that API key.
   */
  fetchMyRequests(
    params: { offset?: number; limit?: number; cursor?: string; keyId?: string } = {},
  ): Promise<api.RequestHistory> {
    const { keyId, ...rest } = params;
    const query = { ...rest, ...(keyId === undefined ? {} : { key_id: keyId }) };
    return this.#authed((auth) => fetchMyRequests({ client: this.#client, auth, query }));
  }

  /** Every record of the caller's history (or of one key's, `keyId`), newest first, a page at a time (by cursor: each page costs the same). */
  async *allMyRequests(params: { keyId?: string } = {}): AsyncGenerator<api.RequestHistory['requests'][number]> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchMyRequests({ ...params, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
      yield* page.requests;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /**
   * The caller's requests and cost per UTC day over the last `days` days (default 30), oldest
   * first, and the same period split `by_key` and `by_origin`; `keyId` counts one API key's only.
   */
  fetchMyUsage(params: { days?: number; keyId?: string } = {}): Promise<api.DailyUsage> {
    const { keyId, ...rest } = params;
    const query = { ...rest, ...(keyId === undefined ? {} : { key_id: keyId }) };
    return this.#authed((auth) => fetchMyUsage({ client: this.#client, auth, query }));
  }

  /**
   * A new named API key of the caller's, living `expiresInDays` days (1–365, default 90). Its
   * value (`token`) is in this answer only; give it to a program as its `apiKey`. The API asks
   * for the account's current password: `currentPassword`, else the client's own `password`.
   */
  createApiKey(params: { name: string; expiresInDays?: number; currentPassword?: string }): Promise<api.ApiKey> {
    const body = {
      name: params.name,
      ...(params.expiresInDays === undefined ? {} : { expires_in_days: params.expiresInDays }),
      current_password: this.#confirmation(params.currentPassword),
    };
    return this.#authed((auth) => createApiKey({ client: this.#client, auth, body }));
  }

  /**
   * A new publishable key (`spk_…`) for web pages of `origins`, with budgets of its own (see
   * `PublishableKeyParams`). Its value (`token`) is in this answer only; put it in the page, as a
   * `SchoolSearchClient`'s `publishableKey`. Confirmed with `currentPassword`, else the client's own `password`.
   */
  createPublishableKey(params: PublishableKeyParams): Promise<api.ApiKey> {
    const body = {
      name: params.name,
      origins: [...params.origins],
      ...budgets(params),
      ...(params.expiresInDays === undefined ? {} : { expires_in_days: params.expiresInDays }),
      current_password: this.#confirmation(params.currentPassword),
    };
    return this.#authed((auth) => createPublishableKey({ client: this.#client, auth, body }));
  }

  /**
   * Renames one of the caller's API keys, or changes a publishable key's origins and budgets (a
   * secret key given those is a 400 `not-a-publishable-key`). Needs no password. The key as it is now.
   */
  updateApiKey(tokenId: string, changes: ApiKeyChanges): Promise<api.TokenInfo> {
    const body = {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.origins === undefined ? {} : { origins: [...changes.origins] }),
      ...budgets(changes),
    };
    return this.#authed((auth) => updateApiKey({ client: this.#client, auth, path: { tokenId }, body }));
  }

  /**
   * A new value for one of the caller's API keys (same name and lifetime); the old value stops
   * working at once. Confirmed with `currentPassword`, else the client's own `password`.
   */
  rotateApiKey(tokenId: string, params: { currentPassword?: string } = {}): Promise<api.ApiKey> {
    const body = { current_password: this.#confirmation(params.currentPassword) };
    return this.#authed((auth) => rotateApiKey({ client: this.#client, auth, path: { tokenId }, body }));
  }

  /**
   * Sets a new password for the caller's account, after checking the current one (a wrong one is
   * a 403 `wrong-password`). Every other session of the account ends; this client's token keeps
   * working, and its later logins (and key confirmations) use `newPassword`. API keys keep
   * working unless `revokeApiKeys` (choose it when someone else may know the password).
   */
  async changePassword(params: {
    currentPassword: string;
    newPassword: string;
    revokeApiKeys?: boolean;
  }): Promise<void> {
    const body = {
      current_password: params.currentPassword,
      new_password: params.newPassword,
      ...(params.revokeApiKeys ? { revoke_api_keys: true } : {}),
    };
    await this.#authed((auth) => changePassword({ client: this.#client, auth, body }));
    this.#keeper.passwordChanged(params.newPassword);
  }

  #confirmation(given: string | undefined): string {
    const password = given ?? this.#keeper.password;
    if (password === undefined) {
      throw new TypeError('Creating or rotating an API key needs the current password: pass currentPassword.');
    }
    return password;
  }

  /** The caller's live session tokens and API keys (`kind`), newest first. */
  listTokens(): Promise<api.TokenList> {
    return this.#authed((auth) => listMyTokens({ client: this.#client, auth }));
  }

  async revokeToken(tokenId: string): Promise<void> {
    await this.#authed((auth) => revokeMyToken({ client: this.#client, auth, path: { tokenId } }));
    this.#keeper.forgetTokenId(tokenId);
  }

  /** Revokes the current token and forgets it. With credentials, a later call logs in again. */
  async logout(): Promise<void> {
    const token = await this.#keeper.release();
    if (token === undefined) return;
    const result = await revokeCurrentToken({ client: this.#client, auth: bearer(token) });
    // Already dead is as logged out as it gets.
    if (result.response?.status === 401) return;
    unwrap(result);
  }

  /**
   * Runs `call` with the current token; after a 401, once more with a fresh login. `keyParameter`:
   * the operation takes a publishable key as its `key` query parameter (elsewhere the key goes
   * as a bearer token, for the server to refuse with its 403).
   */
  async #authed<R extends SdkResult<unknown>>(
    call: (auth: ReturnType<typeof bearer>) => Promise<R>,
    takes: { keyParameter?: boolean } = {},
  ): Promise<DataOf<R>> {
    const credential = this.#keyInQuery && takes.keyParameter ? keyParameter : bearer;
    const token = await this.#keeper.token();
    const first = await call(credential(token));
    if (first.response?.status !== 401 || !this.#keeper.canLogIn) return unwrap(first);
    this.#keeper.forget(token);
    const retryToken = await this.#keeper.token();
    const second = await call(credential(retryToken));
    // Surfaced, not retried again: a token refused right after login means something other
    // than expiry is wrong, and looping would only hammer the (deliberately slow) login.
    if (second.response?.status === 401) this.#keeper.forget(retryToken);
    return unwrap(second);
  }
}

/** The search's parameters as the contract names and shapes them (a list for level and type). */
function searchQuery(params: SearchParams): api.FetchSchoolSearchData['query'] {
  const { level, type, near, radiusKm, idempotencyKey: _key, ...rest } = params;
  return {
    ...rest,
    ...(level === undefined ? {} : { level: listOf(level) }),
    ...(type === undefined ? {} : { type: listOf(type) }),
    ...(near === undefined ? {} : { near: typeof near === 'string' ? near : nearText(near) }),
    ...(radiusKm === undefined ? {} : { radius_km: radiusKm }),
  };
}

const KEY_PARAMETER = { keyParameter: true } as const;

/** A publishable key's budgets as the contract names them; those not given are left out. */
function budgets(params: { searchesPerMinute?: number; searchesPerDay?: number; visitorSearchesPerMinute?: number }) {
  return {
    ...(params.searchesPerMinute === undefined ? {} : { searches_per_minute: params.searchesPerMinute }),
    ...(params.searchesPerDay === undefined ? {} : { searches_per_day: params.searchesPerDay }),
    ...(params.visitorSearchesPerMinute === undefined
      ? {}
      : { visitor_searches_per_minute: params.visitorSearchesPerMinute }),
  };
}

function pickPublishable(options: SchoolSearchClientOptions): string | undefined {
  const key = options.publishableKey;
  if (key === undefined) return undefined;
  if (options.token !== undefined || options.apiKey !== undefined || options.email !== undefined) {
    throw new TypeError('SchoolSearchClient: a publishableKey is the only credential; give no token, apiKey or email.');
  }
  if (typeof key !== 'string' || !key.startsWith('spk_')) {
    throw new TypeError(
      'SchoolSearchClient: `publishableKey` is a publishable key (spk_…); give a secret key as apiKey.',
    );
  }
  return key;
}

function listOf<T extends string>(value: T | readonly T[]): T[] {
  return typeof value === 'string' ? [value] : [...value];
}

/** `<lat>,<lon>` in plain decimals: String() would write 1e-7, which the contract's pattern refuses. */
function nearText(point: GeoPoint): string {
  return `${decimal(point.latitude)},${decimal(point.longitude)}`;
}

function decimal(degrees: number): string {
  // 10 decimals (~0.01 mm) keep every digit a position has; trailing zeros go. NaN and
  // Infinity stay as they are, for the request validator to refuse.
  if (!Number.isFinite(degrees)) return String(degrees);
  const text = degrees.toFixed(10).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

function pickToken(token: string | undefined, apiKey: string | undefined): string | undefined {
  if (token !== undefined && apiKey !== undefined && token !== apiKey) {
    throw new TypeError('SchoolSearchClient: `token` and `apiKey` are the same thing; give one of them.');
  }
  return token ?? apiKey;
}

function pickCredentials(email: string | undefined, password: string | undefined) {
  if ((email === undefined) !== (password === undefined)) {
    throw new TypeError('SchoolSearchClient: give both email and password, or neither.');
  }
  return email !== undefined && password !== undefined ? { email, password } : undefined;
}

export { SchoolSearchApiError };
