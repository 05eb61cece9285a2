// GET /v1/fetchMyData, GET /v1/fetchMyRequests and GET /v1/fetchMyUsage.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyData, fetchMyRequests, fetchMyUsage, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { zAccount, zDailyUsage, zRequestHistory } from '../../generated/zod.gen.ts';
import { keepDays } from '../../src/domain/metering/retention.ts';
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

  test('when the user has searched, then usage counts each search and its cost', async () => {
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
  test('when the user has searched, then the records come newest first with a total, paged', async () => {
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
    expect(past.data).toEqual({ requests: [], total_count: 7, offset: 100, limit: 25, next_cursor: null });
  });

  test('when two searches differ only in stateCode, offset or limit, then their records say so, and trequestmade stays search_schools:<query>', async () => {
    const user = await app.userClient();
    const asked = [
      { query: 'univ tex', stateCode: 'tx', offset: 25, limit: 10 },
      { query: 'univ tex', offset: 0 },
    ] as const;
    const answers = [];
    for (const query of asked) {
      answers.push((await fetchSchoolSearch({ client: user.client, query })).data!.apirequest);
      app.clock.advance(1);
    }
    expect(answers.map(({ tid: _, ttimemade: __, ...rest }) => rest)).toEqual([
      { trequestmade: 'search_schools:univ tex', trequestcost: 1, stateCode: 'TX', offset: 25, limit: 10 },
      { trequestmade: 'search_schools:univ tex', trequestcost: 1, offset: 0, limit: 25 },
    ]);
    const history = zRequestHistory.parse((await fetchMyRequests({ client: user.client })).data);
    expect(history.requests).toEqual(answers.slice().reverse());
  });

  test('when searches give level, type, near and radius_km, then their records carry each as used, near in plain decimals', async () => {
    const user = await app.userClient();
    const answers = [];
    for (const query of [
      {
        query: 'lincoln',
        level: ['high', 'middle'],
        type: ['public'],
        near: ' 42.3736 , -71.1097 ',
        radius_km: 12.5,
      },
      // 1e-8 would print as "1e-8": the record writes plain decimals (to 7 places) as the contract's pattern says.
      { query: 'lincoln', near: '0.00000001,+100', limit: 5 },
    ] satisfies Parameters<typeof fetchSchoolSearch>[0]['query'][]) {
      const answer = await fetchSchoolSearch({ client: user.client, query });
      expect(answer.response?.status).toBe(200);
      answers.push(answer.data!.apirequest);
      app.clock.advance(1);
    }
    expect(answers.map(({ tid: _, ttimemade: __, ...rest }) => rest)).toEqual([
      {
        trequestmade: 'search_schools:lincoln',
        trequestcost: 1,
        offset: 0,
        limit: 25,
        level: ['high', 'middle'],
        type: ['public'],
        near: '42.3736,-71.1097',
        radius_km: 12.5,
      },
      { trequestmade: 'search_schools:lincoln', trequestcost: 1, offset: 0, limit: 5, near: '0,100' },
    ]);
    const history = zRequestHistory.parse((await fetchMyRequests({ client: user.client })).data);
    expect(history.requests).toEqual(answers.slice().reverse());
  });

  test('when paged by next_cursor, then the pages join to the whole history, ties by id, unshifted by newer records, and the last has none', async () => {
    const user = await app.userClient();
    const tids: string[] = [];
    // Three searches share each millisecond: the cursor must split such ties where a page ends.
    for (let i = 0; i < 9; i++) {
      tids.push((await fetchSchoolSearch({ client: user.client, query: { query: `c${i}` } })).data!.apirequest.tid);
      if (i % 3 === 2) app.clock.advance(0.001);
    }
    const first = (await fetchMyRequests({ client: user.client, query: { limit: 4 } })).data!;
    expect(first.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // A search made now is newer than every page already seen: it shifts nothing after a cursor.
    await fetchSchoolSearch({ client: user.client, query: { query: 'later' } });
    const pages = [first];
    while (pages.at(-1)!.next_cursor && pages.length < 10) {
      pages.push(
        (await fetchMyRequests({ client: user.client, query: { limit: 4, cursor: pages.at(-1)!.next_cursor! } })).data!,
      );
    }
    expect(pages.map((p) => p.requests.length)).toEqual([4, 4, 1]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    const byTime = (await fetchMyRequests({ client: user.client, query: { limit: 25 } }))
      .data!.requests.slice(1)
      .map((r) => r.tid);
    expect(pages.flatMap((p) => p.requests.map((r) => r.tid))).toEqual(byTime);
    expect(new Set(byTime)).toEqual(new Set(tids));
    expect(pages.map((p) => p.total_count)).toEqual([9, 10, 10]);
    // An offset counts from the cursor.
    const skipped = (
      await fetchMyRequests({ client: user.client, query: { limit: 2, offset: 1, cursor: first.next_cursor! } })
    ).data!;
    expect(skipped.requests.map((r) => r.tid)).toEqual(byTime.slice(5, 7));
  });

  test.each([
    ['not base64url', '!!!', 'validation-error'],
    ['well formed but not issued by the API', Buffer.from('h1|yesterday|x').toString('base64url'), 'validation-error'],
    [
      'of another version',
      Buffer.from('h0|2026-11-21T10:16:02.125Z|9b2f6c1e-7d4a-4c3b-8e5f-1a2b3c4d5e6f').toString('base64url'),
      'validation-error',
    ],
    ['too long', 'A'.repeat(129), 'validation-error'],
  ])('when the cursor is %s, then 400', async (_what, cursor, type) => {
    const user = await app.userClient();
    expectProblem(await fetchMyRequests({ client: user.client, query: { cursor }, ...unchecked }), 400, type);
  });

  test("when the operator keeps 1 day of records, then the history lists and counts today's and yesterday's, and usage counts all", async () => {
    const local = await startTestApp({ tokenTtlSeconds: 7 * 86_400, retention: keepDays(1) });
    try {
      const user = await local.userClient();
      const tid = async (query: string) =>
        (await fetchSchoolSearch({ client: user.client, query: { query } })).data!.apirequest.tid;
      await tid('two days ago');
      local.clock.advance(86_400);
      const yesterday = await tid('yesterday');
      local.clock.advance(86_400);
      const today = await tid('today');
      const history = (await fetchMyRequests({ client: user.client })).data!;
      expect(history.requests.map((r) => r.tid)).toEqual([today, yesterday]);
      expect(history.total_count).toBe(2);
      expect((await fetchMyData({ client: user.client })).data!.usage.request_count).toBe(3);
      expect(
        (await fetchMyUsage({ client: user.client, query: { days: 3 } })).data!.days.map((d) => d.request_count),
      ).toEqual([1, 1, 1]);
    } finally {
      await local.close();
    }
  });

  test('when a new user asks, then the history is empty', async () => {
    const user = await app.userClient();
    const r = await fetchMyRequests({ client: user.client });
    expect(r.data).toEqual({ requests: [], total_count: 0, offset: 0, limit: 25, next_cursor: null });
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

describe('fetchMyUsage (GET /v1/fetchMyUsage)', () => {
  const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

  test("when days is not given, then the last 30 UTC days, oldest first, every day present, today's searches counted", async () => {
    const user = await app.userClient();
    for (const query of ['harvard', 'yale']) await fetchSchoolSearch({ client: user.client, query: { query } });
    const r = await fetchMyUsage({ client: user.client });
    expect(r.response!.status).toBe(200);
    expect(r.response!.headers.get('cache-control')).toBe('no-store');
    const usage = zDailyUsage.parse(r.data);
    expect(usage.days).toHaveLength(30);
    expect(usage.to).toBe(utcDay(0));
    expect(usage.from).toBe(usage.days[0]!.date);
    expect(usage.days.map((d) => d.date)).toEqual([...usage.days.map((d) => d.date)].sort());
    expect(usage.days.at(-1)).toEqual({ date: utcDay(0), request_count: 2, total_cost: 2 });
    expect(usage.days.slice(0, -1).every((d) => d.request_count === 0 && d.total_cost === 0)).toBe(true);
  });

  test('when searches were made on earlier days, then each counts on its own UTC day', async () => {
    const local = await startTestApp({ tokenTtlSeconds: 7 * 86_400 });
    try {
      const user = await local.userClient();
      await fetchSchoolSearch({ client: user.client, query: { query: 'a' } });
      local.clock.advance(86_400);
      for (const query of ['b', 'c', 'd']) await fetchSchoolSearch({ client: user.client, query: { query } });
      local.clock.advance(2 * 86_400);
      const usage = (await fetchMyUsage({ client: user.client, query: { days: 4 } })).data!;
      expect(usage.days.map((d) => d.request_count)).toEqual([1, 3, 0, 0]);
      expect(usage.to).toBe(local.clock.now().toISOString().slice(0, 10));
    } finally {
      await local.close();
    }
  });

  test("when another user has searched, then none of it is in the caller's usage", async () => {
    const alice = await app.userClient();
    const bob = await app.userClient();
    await fetchSchoolSearch({ client: alice.client, query: { query: 'harvard' } });
    const usage = (await fetchMyUsage({ client: bob.client, query: { days: 1 } })).data!;
    expect(usage.days).toEqual([{ date: utcDay(0), request_count: 0, total_cost: 0 }]);
  });

  test.each([0, 367, -1, 'x', 1.5])('when days is %s, then 400 naming it', async (days) => {
    const user = await app.userClient();
    const r = await fetchMyUsage({ client: user.client, query: { days } as never, ...unchecked });
    expectProblem(r, 400, 'validation-error');
    expect(JSON.stringify(r.error)).toContain('days');
  });

  test('when there is no token, then 401', async () => {
    const r = await fetchMyUsage({ client: app.client() });
    expectProblem(r, 401, 'unauthorized');
  });
});
