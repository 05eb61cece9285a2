// A user reaches only their own tokens and data, by every route.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  fetchMyData,
  fetchMyRequests,
  fetchSchoolSearch,
  listMyTokens,
  revokeMyToken,
} from '../../generated/sdk.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

let app: TestApp;
let alice: Awaited<ReturnType<TestApp['userClient']>>;
let bob: Awaited<ReturnType<TestApp['userClient']>>;
let aliceTid: string;
let aliceTokenId: string;

beforeAll(async () => {
  app = await startTestApp();
  await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
  alice = await app.userClient('alice@example.com');
  bob = await app.userClient('bob@example.com');
  aliceTid = (await fetchSchoolSearch({ client: alice.client, query: { query: 'alice-secret-query' } })).data!
    .apirequest.tid;
  aliceTokenId = (await listMyTokens({ client: alice.client })).data!.tokens[0]!.token_id;
});
afterAll(() => app?.close());

describe('user isolation', () => {
  test('when B reads their history, then none of A records appear', async () => {
    await fetchSchoolSearch({ client: bob.client, query: { query: 'bob-query' } });
    const history = await fetchMyRequests({ client: bob.client });
    expect(history.data!.total_count).toBe(1);
    expect(JSON.stringify(history.data)).not.toContain(aliceTid);
    expect(JSON.stringify(history.data)).not.toContain('alice-secret-query');
  });

  test('when B reads their account, then it is B account, and A usage is not counted', async () => {
    const carol = await app.userClient();
    await fetchSchoolSearch({ client: alice.client, query: { query: 'more' } });
    await fetchSchoolSearch({ client: carol.client, query: { query: 'carol' } });
    const me = await fetchMyData({ client: carol.client });
    expect(me.data!.userId).toBe(carol.userId);
    expect(me.data!.email).toBe(carol.email);
    expect(me.data!.usage.request_count).toBe(1);
    expect(me.data!.active_tokens).toBe(1);
    expect(JSON.stringify(me.data)).not.toContain(alice.userId);
  });

  test('when B lists tokens, then A tokens are not listed', async () => {
    const tokens = await listMyTokens({ client: bob.client });
    expect(tokens.data!.tokens.map((t) => t.token_id)).not.toContain(aliceTokenId);
  });

  test('when B revokes A token by id, then 404 (the same as a token that does not exist) and A token still works', async () => {
    const r = await revokeMyToken({ client: bob.client, path: { tokenId: aliceTokenId } });
    expectProblem(r, 404, 'not-found');
    const unknown = await revokeMyToken({
      client: bob.client,
      path: { tokenId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.error).toMatchObject({
      type: r.error!.type,
      title: (r.error as { title: string }).title,
      detail: (r.error as { detail: string }).detail,
    });
    expect((await fetchMyData({ client: alice.client })).data!.userId).toBe(alice.userId);
  });

  test('when B tries to name A through parameters, then 400: no route takes a user id', async () => {
    const attempts = [
      fetchMyRequests({ client: bob.client, query: { userId: alice.userId } as never, ...unchecked }),
      fetchMyData({ client: bob.client, query: { userId: alice.userId } as never, ...unchecked }),
      listMyTokens({ client: bob.client, query: { userId: alice.userId } as never, ...unchecked }),
    ];
    for (const r of await Promise.all(attempts)) expectProblem(r, 400, 'validation-error');
  });

  test('when B uses A token id as a bearer token, then 401', async () => {
    const r = await fetchMyData({ client: app.client({ Authorization: `Bearer ${aliceTokenId}` }) });
    expectProblem(r, 401, 'unauthorized');
  });
});
