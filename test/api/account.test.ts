// GET /v1/fetchMyData and GET /v1/fetchMyRequests.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyData, fetchMyRequests, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { zAccount, zRequestHistory } from '../../generated/zod.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
});
afterAll(() => app.close());

describe('fetchMyData (GET /v1/fetchMyData)', () => {
  test('when a new user asks, then the account has zero usage and no hash', async () => {
    const user = await app.userClient();
    const r = await fetchMyData({ client: user.client });
    expect(r.response!.status).toBe(200);
    const account = zAccount.parse(r.data);
    expect(account).toMatchObject({
      userId: user.userId,
      email: user.email,
      usage: { request_count: 0, total_cost: 0, last_request_at: null },
      active_tokens: 1,
    });
    expect(JSON.stringify(r.data)).not.toMatch(/argon2|password|hash|digest/i);
  });

  test('when the user has searched, then usage counts each search and its cost', async (ctx) => {
    const user = await app.userClient();
    let last = '';
    for (const query of ['harvard', 'yale', 'mit']) {
      last = (await fetchSchoolSearch({ client: user.client, query: { query } })).data!.apirequest.ttimemade;
    }
    const account = (await fetchMyData({ client: user.client })).data!;
    expect(account.usage).toEqual({ request_count: 3, total_cost: 3, last_request_at: last });
  });

  test('when there is no token, then 401', async () => {
    expectProblem(await fetchMyData({ client: app.client() }), 401, 'unauthorized');
  });

  test('when an unknown query parameter is sent, then 400', async () => {
    const user = await app.userClient();
    const r = await fetchMyData({ client: user.client, query: { userId: 'someone-else' } as never, ...unchecked });
    expectProblem(r, 400, 'validation-error');
  });
});

describe('fetchMyRequests (GET /v1/fetchMyRequests)', () => {
  test('when the user has searched, then the records come newest first with a total, paged', async (ctx) => {
    const user = await app.userClient();
    const tids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await fetchSchoolSearch({ client: user.client, query: { query: `q${i}` } });
      tids.push(r.data!.apirequest.tid);
      app.clock.advance(1); // distinct timestamps: "newest first" is then unambiguous
    }
    const first = await fetchMyRequests({ client: user.client, query: { limit: 3 } });
    expect(first.response!.status).toBe(200);
    const page = zRequestHistory.parse(first.data);
    expect(page.total_count).toBe(7);
    expect(page.requests.map((r) => r.tid)).toEqual(tids.slice().reverse().slice(0, 3));
    expect(page.requests[0]!.trequestmade).toBe('search_schools:q6');

    const rest = await fetchMyRequests({ client: user.client, query: { offset: 3, limit: 25 } });
    expect(rest.data!.requests.map((r) => r.tid)).toEqual(tids.slice().reverse().slice(3));

    const past = await fetchMyRequests({ client: user.client, query: { offset: 100 } });
    expect(past.data).toEqual({ requests: [], total_count: 7, offset: 100, limit: 25 });
  });

  test('when a new user asks, then the history is empty', async () => {
    const user = await app.userClient();
    const r = await fetchMyRequests({ client: user.client });
    expect(r.data).toEqual({ requests: [], total_count: 0, offset: 0, limit: 25 });
  });

  test.each([
    ['limit 26', { limit: 26 }],
    ['limit 0', { limit: 0 }],
    ['a negative offset', { offset: -5 }],
    ['an unknown parameter', { userId: 'x' }],
  ])('when the request has %s, then 400', async (_what, query) => {
    const user = await app.userClient();
    const r = await fetchMyRequests({ client: user.client, query: query as never, ...unchecked });
    expectProblem(r, 400, 'validation-error');
  });

  test('when there is no token, then 401', async () => {
    expectProblem(await fetchMyRequests({ client: app.client() }), 401, 'unauthorized');
  });
});
