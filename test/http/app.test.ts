// The HTTP layer on the domain's fakes (test/support/fake-app.ts): the contract's validator, the
// bearer authentication, the handlers' mapping and the one error middleware, through the generated
// client with response validation on, in milliseconds. Part of the inner loop (`npm run
// test:fast`); test/api/ runs the operations again on the real stores.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  changePassword,
  createToken,
  fetchMyData,
  fetchMyRequests,
  fetchSchoolSearch,
  getLiveness,
  getReadiness,
  revokeCurrentToken,
} from '../../generated/sdk.gen.ts';
import { expectProblem, unchecked } from '../support/problem.ts';
import { type FakeApp, startFakeApp } from '../support/fake-app.ts';

let app: FakeApp;
beforeAll(async () => {
  app = await startFakeApp();
});
afterAll(() => app.close());

describe('createToken', () => {
  test('when the credentials are right, then a Bearer token with its lifetimes and no-store; when wrong, the one 401', async () => {
    const { email, password } = await app.signedIn();
    const r = await createToken({ client: app.client(), body: { email, password } });
    expect(r.response!.status).toBe(200);
    expect(r.response!.headers.get('cache-control')).toBe('no-store');
    expect(r.data).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(Date.parse(r.data!.session_expires_at)).toBeGreaterThan(Date.parse(r.data!.expires_at));
    expectProblem(
      await createToken({ client: app.client(), body: { email, password: 'not-the-password' } }),
      401,
      'invalid-credentials',
    );
  });
});

describe('fetchSchoolSearch', () => {
  test('when a user searches, then the engine gets the request in the contract names, and the answer carries its record, metered', async () => {
    const user = await app.signedIn();
    const r = await fetchSchoolSearch({
      client: user.client,
      query: { query: 'harvard', stateCode: 'ma', level: ['high'], type: ['public'], limit: 5 },
    });
    expect(r.response!.status).toBe(200);
    expect(app.engine.queries.at(-1)).toMatchObject({ stateCode: 'MA', level: ['high'], type: ['public'], limit: 5 });
    expect(r.data!.apirequest.trequestmade).toBe('search_schools:harvard');
    expect(r.data!.requestresult.schools.map((s) => s.schoolname)).toEqual(['Harvard University']);
    const history = await fetchMyRequests({ client: user.client });
    expect(history.data!.requests.map((record) => record.tid)).toEqual([r.data!.apirequest.tid]);
  });

  test('when the token is missing, revoked or not a token, then 401 unauthorized with a Bearer challenge', async () => {
    const user = await app.signedIn();
    await revokeCurrentToken({ client: user.client });
    for (const client of [app.client(), user.client, app.client({ Authorization: 'Bearer nope' })]) {
      const r = await fetchSchoolSearch({ client, query: { query: 'harvard' } });
      expectProblem(r, 401, 'unauthorized');
      expect(r.response!.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
    }
  });

  test.each([
    ['an unknown state code', { query: 'harvard', stateCode: 'ZZ' }, 'stateCode'],
    ['a limit over 25', { query: 'harvard', limit: 26 }, 'limit'],
    ['an empty query', { query: ' ' }, 'query'],
    ['an unknown parameter', { query: 'harvard', colour: 'red' }, 'colour'],
    ['a radius without near', { query: 'harvard', radius_km: 5 }, 'radius_km'],
  ])(
    'when the search has %s, then 400 validation-error naming it, and nothing is metered',
    async (_what, query, name) => {
      const user = await app.signedIn();
      const r = await fetchSchoolSearch({ client: user.client, query: query as never, ...unchecked });
      const problem = expectProblem(r, 400, 'validation-error');
      expect(problem.errors!.map((e) => e.name)).toContain(name);
      expect((await fetchMyData({ client: user.client })).data!.usage.request_count).toBe(0);
    },
  );
});

describe('the error middleware', () => {
  test('when the current password is wrong, then 403 wrong-password (a domain error), not a 401', async () => {
    const user = await app.signedIn();
    expectProblem(
      await changePassword({
        client: user.client,
        body: { current_password: 'not-it-at-all', new_password: 'a-new-password-1' },
      }),
      403,
      'wrong-password',
    );
  });

  test('when a path is unknown, then 404; when the method is not one of its, then 405 with Allow', async () => {
    const unknown = await fetch(`${app.baseUrl}/v1/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const wrong = await fetch(`${app.baseUrl}/v1/fetchMyData`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });

  test('when the store cannot answer, then readiness is 503 with Retry-After and liveness still 200', async () => {
    const { StoreUnavailableError } = await import('../../src/domain/shared/errors.ts');
    app.store.down = new StoreUnavailableError('the fake store is down');
    try {
      const ready = await getReadiness({ client: app.client() });
      expectProblem(ready, 503, 'service-unavailable');
      expect(ready.response!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await getLiveness({ client: app.client() })).response!.status).toBe(200);
    } finally {
      app.store.down = undefined;
    }
    expect((await getReadiness({ client: app.client() })).response!.status).toBe(200);
  });
});
