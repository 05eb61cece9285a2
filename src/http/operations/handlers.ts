// Thin handlers: validated input in, one call into the domain, the result mapped to the contract.
import type * as api from '../../../generated/types.gen.ts';
import type { IssuedToken, Principal } from '../../domain/auth.service.ts';
import type { IssuedKey } from '../../domain/keys.service.ts';
import type { RequestRecord, School } from '../../domain/ports.ts';
import type { UseCases } from '../../domain/use-cases.ts';
import { monogramSvg } from './monogram.ts';
import type { Input, Operations, Reply } from './operations.ts';

export interface HandlerContext {
  /** The authenticated caller; throws for operations without security (a bug, not a 401). */
  principal(): Principal;
}

export type Handler<O extends keyof Operations> = (input: Input<O>, ctx: HandlerContext) => Promise<Reply<O>>;
export type Handlers = { [O in keyof Operations]: Handler<O> };

export interface HandlerDeps extends UseCases {
  /** Absolute base for links in responses (image_url), e.g. http://localhost:3000. */
  readonly publicBaseUrl: string;
}

const DEFAULT_OFFSET = 0;
const DEFAULT_LIMIT = 25;
/** The contract's default of fetchMyUsage's `days`: the dashboard's 30-day chart. */
const DEFAULT_USAGE_DAYS = 30;
/** The contract's default of createApiKey's `expires_in_days`. */
const DEFAULT_KEY_DAYS = 90;

export function createHandlers({ auth, keys, search, account, catalog, health, publicBaseUrl }: HandlerDeps): Handlers {
  const imageUrl = (school: School): string =>
    school.imageUrl ?? `${publicBaseUrl}/images/schools/${school.id}.svg`;

  return {
    async createToken({ body }) {
      return { status: 200, body: tokenBody(await auth.login(body.email, body.password)), headers: NO_STORE };
    },

    async changePassword({ body }, ctx) {
      await auth.changePassword(ctx.principal(), body.current_password, body.new_password);
      return { status: 204, body: undefined };
    },

    async revokeCurrentToken(_input, ctx) {
      await auth.revokeCurrent(ctx.principal());
      return { status: 204, body: undefined };
    },

    async rotateToken(_input, ctx) {
      return { status: 200, body: tokenBody(await auth.rotate(ctx.principal())), headers: NO_STORE };
    },

    async listMyTokens(_input, ctx) {
      const tokens = await auth.listTokens(ctx.principal());
      return {
        status: 200,
        headers: NO_STORE,
        body: {
          tokens: tokens.map((t) => ({
            token_id: t.id,
            kind: t.kind,
            name: t.name,
            hint: t.hint,
            created_at: t.createdAt.toISOString(),
            expires_at: t.expiresAt.toISOString(),
            last_used_at: t.lastUsedAt?.toISOString() ?? null,
            current: t.current,
          })),
        },
      };
    },

    async createApiKey({ body }, ctx) {
      const key = await keys.create(ctx.principal(), body.name, body.expires_in_days ?? DEFAULT_KEY_DAYS);
      return { status: 201, body: keyBody(key), headers: NO_STORE };
    },

    async rotateApiKey({ path }, ctx) {
      return { status: 200, body: keyBody(await keys.rotate(ctx.principal(), path.tokenId.toLowerCase())), headers: NO_STORE };
    },

    async revokeMyToken({ path }, ctx) {
      await auth.revokeById(ctx.principal(), path.tokenId.toLowerCase());
      return { status: 204, body: undefined };
    },

    async fetchSchoolSearch({ query }, ctx) {
      const offset = query.offset ?? DEFAULT_OFFSET;
      const limit = query.limit ?? DEFAULT_LIMIT;
      const outcome = await search.search(ctx.principal(), { query: query.query, stateCode: query.stateCode, offset, limit });
      return {
        status: 200,
        headers: NO_STORE,
        body: {
          apirequest: recordBody(outcome.record),
          requestresult: {
            total_count: outcome.total,
            offset,
            limit,
            schools: outcome.schools.map((s) => ({
              schoolid: s.id,
              schoolname: s.name,
              stateprovince: s.state as api.StateCode,
              city: s.city,
              image_url: imageUrl(s),
              // Only the known ones: the contract has them absent, never null, when unknown.
              ...(s.address === undefined ? {} : { address: s.address }),
              ...(s.postalCode === undefined ? {} : { postal_code: s.postalCode }),
              ...(s.latitude === undefined || s.longitude === undefined ? {} : { latitude: s.latitude, longitude: s.longitude }),
              similarity_score: s.similarity,
              total_count: outcome.total,
            })),
          },
        },
      };
    },

    async fetchMyData(_input, ctx) {
      const view = await account.account(ctx.principal());
      return {
        status: 200,
        headers: NO_STORE,
        body: {
          userId: view.userId,
          email: view.email,
          created_at: view.createdAt.toISOString(),
          usage: {
            request_count: view.usage.count,
            total_cost: view.usage.totalCost,
            last_request_at: view.usage.lastAt?.toISOString() ?? null,
          },
          active_tokens: view.activeTokens,
        },
      };
    },

    async fetchMyRequests({ query }, ctx) {
      const offset = query.offset ?? DEFAULT_OFFSET;
      const limit = query.limit ?? DEFAULT_LIMIT;
      const page = await account.history(ctx.principal(), { offset, limit, cursor: query.cursor });
      return {
        status: 200,
        headers: NO_STORE,
        body: { total_count: page.total, offset, limit, next_cursor: page.nextCursor, requests: page.records.map(recordBody) },
      };
    },

    async fetchMyUsage({ query }, ctx) {
      const usage = await account.usageByDay(ctx.principal(), query.days ?? DEFAULT_USAGE_DAYS);
      return {
        status: 200,
        headers: NO_STORE,
        body: { from: usage.from, to: usage.to, days: usage.days.map((d) => ({ date: d.day, request_count: d.count, total_cost: d.cost })) },
      };
    },

    async getSchoolImage({ path }) {
      const school = await catalog.school(path.schoolId);
      return {
        status: 200,
        body: monogramSvg(school.id, school.name),
        contentType: 'image/svg+xml',
        headers: { 'Cache-Control': 'public, max-age=86400' },
      };
    },

    async getLiveness() {
      return { status: 200, body: { status: 'ok' } };
    },

    async getReadiness() {
      const { store } = await health.readiness();
      return { status: 200, body: { status: 'ok', store } };
    },
  };
}

/** Tokens and a user's own data must not be kept by browsers or shared caches. */
const NO_STORE = { 'Cache-Control': 'no-store' };

function tokenBody(t: IssuedToken): api.Token {
  return {
    userId: t.userId,
    token: t.value,
    expires_in: t.expiresIn,
    token_type: 'Bearer',
    expires_at: t.expiresAt.toISOString(),
    token_id: t.tokenId,
  };
}

function keyBody({ record, value }: IssuedKey): api.ApiKey {
  return {
    token_id: record.id,
    name: record.name ?? '',
    token: value,
    token_type: 'Bearer',
    hint: record.hint,
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt.toISOString(),
  };
}

function recordBody(r: RequestRecord): api.ApiRequest {
  return { tid: r.id, trequestmade: r.requestMade, ttimemade: r.timeMade.toISOString(), trequestcost: r.cost };
}
