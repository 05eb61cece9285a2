// Thin handlers: validated input in (with the contract's defaults filled in: operations.ts, Input),
// one call into the domain, the result mapped to the contract (./bodies.ts).
import type { Principal } from '../../domain/accounts/accounts.ports.ts';
import type * as api from '../../../generated/types.gen.ts';
import type { UseCases } from '../../domain/use-cases.ts';
import {
  accountBody,
  keyBody,
  NO_STORE,
  recordBody,
  schoolRecordBody,
  searchResultBody,
  tokenBody,
  tokenListBody,
  usageSplitBody,
} from './bodies.ts';
import { deviceCookieHeader } from '../device-cookie.ts';
import { monogramSvg } from './monogram.ts';
import type { Input, Operations, Reply } from './operations.ts';
import { SerializedJson } from './operations.ts';
import { searchInput } from './search-input.ts';

export interface HandlerContext {
  /** The authenticated caller; throws for operations without security (a bug, not a 401). */
  principal(): Principal;
  /** A request header the operation declares (the validator has checked its form), if sent. */
  header(name: string): string | undefined;
}

export type Handler<O extends keyof Operations> = (input: Input<O>, ctx: HandlerContext) => Promise<Reply<O>>;
export type Handlers = { [O in keyof Operations]: Handler<O> };

export interface HandlerDeps extends UseCases {
  /** Absolute base for links in responses (image_url), e.g. http://localhost:3000. */
  readonly publicBaseUrl: string;
}

/** The 202 of both mail operations: one body for every address, so it says nothing about which have accounts. */
const MAIL_ACCEPTED = {
  status: 'accepted',
  detail: 'An e-mail is on its way to this address. Follow its link within the time it states.',
} as const;

export function createHandlers(deps: HandlerDeps): Handlers {
  const { auth, keys, search, account, catalog, health, publicBaseUrl, signUp, passwordReset } = deps;
  return {
    async getSignUpOptions() {
      const options = signUp.options();
      return { status: 200, body: { signup: options.signUp, password_reset: options.passwordReset } };
    },

    async signUp({ body }) {
      await signUp.signUp(body.email, body.password);
      return { status: 202, body: MAIL_ACCEPTED };
    },

    async confirmSignUp({ body }) {
      return { status: 200, body: tokenBody(await signUp.confirm(body.token, body.password)), headers: NO_STORE };
    },

    async acceptInvitation({ body }) {
      return {
        status: 200,
        body: tokenBody(await signUp.acceptInvitation(body.token, body.password)),
        headers: NO_STORE,
      };
    },

    async requestPasswordReset({ body }) {
      await passwordReset.request(body.email);
      return { status: 202, body: MAIL_ACCEPTED };
    },

    async resetPassword({ body }) {
      await passwordReset.reset(body.token, body.new_password, body.revoke_api_keys);
      return { status: 204, body: undefined };
    },

    async createToken({ body }) {
      const issued = await auth.login(body.email, body.password);
      const headers = issued.deviceProof
        ? { ...NO_STORE, 'Set-Cookie': deviceCookieHeader(issued.deviceProof) }
        : NO_STORE;
      return { status: 200, body: tokenBody(issued, body.device_proof !== undefined), headers };
    },

    async changePassword({ body }, ctx) {
      await auth.changePassword(ctx.principal(), body.current_password, body.new_password, body.revoke_api_keys);
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
      return { status: 200, headers: NO_STORE, body: { tokens: tokens.map(tokenListBody) } };
    },

    async createApiKey({ body }, ctx) {
      const key = await keys.create(ctx.principal(), body.name, body.expires_in_days, body.current_password);
      return { status: 201, body: keyBody(key), headers: NO_STORE };
    },

    async createPublishableKey({ body }, ctx) {
      const key = await keys.createPublishable(
        ctx.principal(),
        body.name,
        {
          origins: body.origins,
          perMinute: body.searches_per_minute,
          perDay: body.searches_per_day,
          perVisitorPerMinute: body.visitor_searches_per_minute,
        },
        body.expires_in_days,
        body.current_password,
      );
      return { status: 201, body: keyBody(key), headers: NO_STORE };
    },

    async updateApiKey({ path, body }, ctx) {
      const principal = ctx.principal();
      const key = await keys.update(principal, path.tokenId.toLowerCase(), {
        name: body.name,
        origins: body.origins,
        perMinute: body.searches_per_minute,
        perDay: body.searches_per_day,
        perVisitorPerMinute: body.visitor_searches_per_minute,
      });
      return {
        status: 200,
        headers: NO_STORE,
        body: tokenListBody({ ...key, current: key.id === principal.tokenId }),
      };
    },

    async rotateApiKey({ path, body }, ctx) {
      return {
        status: 200,
        body: keyBody(await keys.rotate(ctx.principal(), path.tokenId.toLowerCase(), body.current_password)),
        headers: NO_STORE,
      };
    },

    async revokeMyToken({ path }, ctx) {
      await auth.revokeById(ctx.principal(), path.tokenId.toLowerCase());
      return { status: 204, body: undefined };
    },

    async fetchSchoolSearch({ query }, ctx) {
      const request = searchInput(query, ctx.header('Idempotency-Key'));
      // The answer's JSON is made once per search and given again as it is (kept-answers.ts);
      // the record, the search's own, goes around it.
      const { record, text, kept } = await search.answer(ctx.principal(), request, (outcome) =>
        JSON.stringify(searchResultBody(outcome, request.offset, request.limit, publicBaseUrl)),
      );
      // The record first, unique to the request; compressed, the kept text after it is spliced
      // from bytes compressed once (compression/spliced-answers.ts).
      const body = SerializedJson.around<api.SchoolSearchResponse>(
        kept,
        `{"apirequest":${JSON.stringify(recordBody(record))},"requestresult":`,
        text,
        '}',
      );
      return { status: 200, headers: NO_STORE, body };
    },

    async getSchool({ path }) {
      const record = await catalog.record(path.schoolId);
      return { status: 200, body: schoolRecordBody(record, publicBaseUrl) };
    },

    async fetchMyData(_input, ctx) {
      const view = await account.account(ctx.principal());
      return { status: 200, headers: NO_STORE, body: accountBody(view) };
    },

    async fetchMyRequests({ query }, ctx) {
      const { offset, limit } = query;
      const page = await account.history(ctx.principal(), {
        offset,
        limit,
        cursor: query.cursor,
        keyId: query.key_id?.toLowerCase(),
      });
      return {
        status: 200,
        headers: NO_STORE,
        body: {
          total_count: page.total,
          offset,
          limit,
          next_cursor: page.nextCursor,
          requests: page.records.map(recordBody),
        },
      };
    },

    async fetchMyUsage({ query }, ctx) {
      const usage = await account.usageByDay(ctx.principal(), query.days, query.key_id?.toLowerCase());
      return {
        status: 200,
        headers: NO_STORE,
        body: {
          from: usage.from,
          to: usage.to,
          days: usage.days.map((d) => ({ date: d.day, request_count: d.count, total_cost: d.cost })),
          ...usageSplitBody(usage),
        },
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
