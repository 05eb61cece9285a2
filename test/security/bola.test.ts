// OWASP API1:2023 Broken Object Level Authorization. Every operation that returns or changes a
// user's data, tried by another user (Bob) with his own token and with Alice's ids, tokens and
// token ids: Bob never sees anything of Alice's, and Alice's state is exactly what it was.
// (test/api/isolation.test.ts has the everyday version of this; here every route is attacked and
// every byte Bob receives is searched for Alice's secrets.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createApiKey,
  fetchMyData,
  fetchMyRequests,
  fetchSchoolSearch,
  listMyTokens,
  revokeCurrentToken,
  revokeMyToken,
  rotateApiKey,
  rotateToken,
} from '../../generated/sdk.gen.ts';
import { tokenDigest } from '../../src/domain/accounts/token.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';
import { answer } from '../support/raw-http.ts';

type User = Awaited<ReturnType<TestApp['userClient']>>;

let app: TestApp;
let alice: User;
let bob: User;
/** Everything that identifies Alice or her data. */
const aliceSecrets: string[] = [];
/** Every body and header value Bob received. */
const seenByBob: string[] = [];
const aliceTokens: Array<{ id: string; value: string }> = [];
const aliceTids: string[] = [];

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function record(r: { response?: Response; data?: unknown; error?: unknown }): void {
  seenByBob.push(JSON.stringify(r.data ?? r.error ?? null));
  r.response?.headers.forEach((value, name) => {
    seenByBob.push(`${name}: ${value}`);
  });
}

async function aliceState() {
  const client = app.client(bearer(aliceTokens[0]!.value));
  const history = [];
  for (let offset = 0; ; offset += 25) {
    const page = (await fetchMyRequests({ client, query: { offset, limit: 25 } })).data!;
    history.push(...page.requests);
    if (page.requests.length < 25) break;
  }
  return {
    me: (await fetchMyData({ client })).data,
    history,
    // last_used_at moves when Alice herself uses a token (this function does): not Bob's doing.
    tokens: (await listMyTokens({ client })).data!.tokens.map(({ last_used_at: _used, ...t }) => t),
  };
}

let before: Awaited<ReturnType<typeof aliceState>>;

beforeAll(async () => {
  app = await startTestApp();
  await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
  alice = await app.userClient('alice.secret@example.com');
  bob = await app.userClient('bob@example.com');
  const second = await app.services.auth.login(alice.email, alice.password);
  const key = (
    await createApiKey({
      client: alice.client,
      body: { name: 'alice-private-key-name', expires_in_days: 30, current_password: alice.password },
    })
  ).data!;
  for (const value of [alice.token, second.value, key.token]) {
    const listed = (await listMyTokens({ client: app.client(bearer(value)) })).data!.tokens.find((t) => t.current)!;
    aliceTokens.push({ id: listed.token_id, value });
  }
  for (const query of ['alice-private-query-1', 'harvard alice-private-query-2']) {
    aliceTids.push((await fetchSchoolSearch({ client: alice.client, query: { query } })).data!.apirequest.tid);
  }
  aliceSecrets.push(alice.userId, alice.email, 'alice-private-query', 'alice-private-key-name', ...aliceTids);
  for (const t of aliceTokens) aliceSecrets.push(t.id, t.value, t.value.slice(4), tokenDigest(t.value));
  before = await aliceState();
});
afterAll(() => app?.close());

describe('API1: Bob, with his own token, asks for Alice data on every route', () => {
  test('when Bob reads "my data", then it is his account, whatever user hints he adds', async () => {
    const mine = await fetchMyData({ client: bob.client });
    record(mine);
    expect(mine.data).toMatchObject({ userId: bob.userId, email: bob.email });
    // Headers a careless API might honour: ignored.
    const hinted = await fetchMyData({
      client: app.client({ ...bearer(bob.token), 'X-User-Id': alice.userId, 'X-Forwarded-User': alice.email }),
    });
    record(hinted);
    expect(hinted.data).toMatchObject({ userId: bob.userId, email: bob.email });
  });

  test('when Bob names Alice in query parameters of any secured operation, then 400 (no operation takes a user or token id)', async () => {
    const names = [
      ['userId', alice.userId],
      ['user_id', alice.userId],
      ['email', alice.email],
      ['tokenId', aliceTokens[0]!.id],
      ['tid', aliceTids[0]!],
    ] as const;
    for (const [name, value] of names) {
      const attempts = [
        fetchMyData({ client: bob.client, query: { [name]: value } as never, ...unchecked }),
        fetchMyRequests({ client: bob.client, query: { [name]: value } as never, ...unchecked }),
        listMyTokens({ client: bob.client, query: { [name]: value } as never, ...unchecked }),
        rotateToken({ client: bob.client, query: { [name]: value } as never, ...unchecked }),
        revokeCurrentToken({ client: bob.client, query: { [name]: value } as never, ...unchecked }),
        createApiKey({
          client: bob.client,
          body: { name: 'bob key', current_password: bob.password },
          query: { [name]: value } as never,
          ...unchecked,
        }),
        rotateApiKey({
          client: bob.client,
          path: { tokenId: aliceTokens[2]!.id },
          body: { current_password: bob.password },
          query: { [name]: value } as never,
          ...unchecked,
        }),
        fetchSchoolSearch({ client: bob.client, query: { query: 'harvard', [name]: value } as never, ...unchecked }),
      ];
      for (const r of await Promise.all(attempts)) {
        record(r);
        const problem = expectProblem(r, 400, 'validation-error');
        expect(problem.errors).toContainEqual(expect.objectContaining({ location: 'query', name }));
      }
    }
  });

  test('when Bob pages through "my requests" as far as it goes, then only his records appear', async () => {
    await fetchSchoolSearch({ client: bob.client, query: { query: 'bob-query' } });
    for (const offset of [0, 1, 2, 25, 10_000]) {
      const page = await fetchMyRequests({ client: bob.client, query: { offset, limit: 25 } });
      record(page);
      expect(page.response!.status).toBe(200);
      expect(page.data!.total_count).toBe(1);
      for (const r of page.data!.requests) expect(r.trequestmade).toBe('search_schools:bob-query');
    }
  });

  test('when Bob lists "my tokens", then only his token is listed', async () => {
    const list = await listMyTokens({ client: bob.client });
    record(list);
    expect(list.data!.tokens).toHaveLength(1);
    expect(list.data!.tokens[0]!.current).toBe(true);
  });

  test('when Bob revokes Alice tokens by id (any case), then 404 exactly like an unknown id, and nothing is revoked', async () => {
    const unknown = await revokeMyToken({
      client: bob.client,
      path: { tokenId: '00000000-0000-4000-8000-000000000000' },
    });
    record(unknown);
    const reference = expectProblem(unknown, 404, 'not-found');
    for (const { id } of aliceTokens) {
      for (const tokenId of [id, id.toUpperCase()]) {
        const r = await revokeMyToken({ client: bob.client, path: { tokenId } });
        record(r);
        const problem = expectProblem(r, 404, 'not-found');
        const { request_id: _a, ...same } = problem as unknown as Record<string, unknown>;
        const { request_id: _b, ...expected } = reference as unknown as Record<string, unknown>;
        expect(same).toEqual(expected);
      }
    }
    for (const { value } of aliceTokens)
      expect((await fetchMyData({ client: app.client(bearer(value)) })).response!.status).toBe(200);
  });

  test('when Bob uses Alice token id, digest or hint as a bearer token, then 401', async () => {
    const t = aliceTokens[0]!;
    for (const wrong of [t.id, tokenDigest(t.value), t.value.slice(0, 8), `ssk_${tokenDigest(t.value).slice(0, 43)}`]) {
      const r = await fetchMyData({ client: app.client(bearer(wrong)) });
      record(r);
      expectProblem(r, 401, 'unauthorized');
    }
  });

  test('when Bob searches with his header and Alice token in tokenID, then the header wins: metered to Bob, never to Alice', async () => {
    const bobBefore = (await fetchMyData({ client: bob.client })).data!.usage.request_count;
    const r = await fetchSchoolSearch({
      client: bob.client,
      query: { query: 'harvard', tokenID: aliceTokens[0]!.value },
    });
    // Not recorded into seenByBob: Bob sent Alice's token himself (it would trivially "appear").
    expect(r.response!.status).toBe(200);
    expect(JSON.stringify(r.data)).not.toContain(aliceTokens[0]!.value);
    const history = await fetchMyRequests({ client: bob.client, query: { limit: 1 } });
    record(history);
    expect(history.data!.requests[0]!.tid).toBe(r.data!.apirequest.tid);
    expect((await fetchMyData({ client: bob.client })).data!.usage.request_count).toBe(bobBefore + 1);
  });

  test('when Bob sends Alice token id in tokenID without a header, then 401 (an id is not a token)', async () => {
    const r = await fetchSchoolSearch({
      client: app.client(),
      query: { query: 'harvard', tokenID: aliceTokens[0]!.id },
    });
    record(r);
    expectProblem(r, 401, 'unauthorized');
  });

  test('when Bob rotates with a body naming Alice, then the new token is his and hers are untouched', async () => {
    const raw = await fetch(`${app.baseUrl}/v1/auth/rotate`, {
      method: 'POST',
      headers: { ...bearer(bob.token), 'content-type': 'application/json' },
      body: JSON.stringify({ userId: alice.userId, token_id: aliceTokens[0]!.id, email: alice.email }),
    });
    const r = await answer(raw);
    seenByBob.push(r.text);
    // The operation takes no body: whatever it says, the token is issued to the caller.
    expect(raw.status).toBe(200);
    const issued = r.error as { userId: string; token: string };
    expect(issued.userId).toBe(bob.userId);
    const me = await fetchMyData({ client: app.client(bearer(issued.token)) });
    record(me);
    expect(me.data!.userId).toBe(bob.userId);
    bob = { ...bob, token: issued.token, client: app.client(bearer(issued.token)) };
  });

  test('when Bob rotates Alice key by id (any case), then 404 exactly like an unknown id, and her key keeps working', async () => {
    const unknown = await rotateApiKey({
      client: bob.client,
      path: { tokenId: '00000000-0000-4000-8000-000000000000' },
      body: { current_password: bob.password },
    });
    record(unknown);
    const reference = expectProblem(unknown, 404, 'not-found');
    for (const { id } of aliceTokens) {
      for (const tokenId of [id, id.toUpperCase()]) {
        const r = await rotateApiKey({
          client: bob.client,
          path: { tokenId },
          body: { current_password: bob.password },
        });
        record(r);
        const { request_id: _a, ...same } = expectProblem(r, 404, 'not-found') as unknown as Record<string, unknown>;
        const { request_id: _b, ...expected } = reference as unknown as Record<string, unknown>;
        expect(same).toEqual(expected);
      }
    }
    expect((await fetchMyData({ client: app.client(bearer(aliceTokens[2]!.value)) })).data!.userId).toBe(alice.userId);
  });

  test('when Bob creates a key with a body naming Alice, then 400 and no key; his own key is his only', async () => {
    const raw = await fetch(`${app.baseUrl}/v1/keys`, {
      method: 'POST',
      headers: { ...bearer(bob.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'for alice', userId: alice.userId, email: alice.email }),
    });
    const r = await answer(raw);
    seenByBob.push(r.text);
    expectProblem(r, 400, 'validation-error');
    const key = await createApiKey({ client: bob.client, body: { name: 'bob key', current_password: bob.password } });
    record(key);
    expect(key.response!.status).toBe(201);
    const me = await fetchMyData({ client: app.client(bearer(key.data!.token)) });
    record(me);
    expect(me.data!.userId).toBe(bob.userId);
    const list = await listMyTokens({ client: app.client(bearer(key.data!.token)) });
    record(list);
    expect(list.data!.tokens.map((t) => t.kind).sort()).toEqual(['key', 'session']);
  });

  test('when Bob logs out, then only his token is revoked', async () => {
    const r = await revokeCurrentToken({ client: bob.client });
    record(r);
    expect(r.response!.status).toBe(204);
    expectProblem(await fetchMyData({ client: bob.client }), 401, 'unauthorized');
    for (const { value } of aliceTokens)
      expect((await fetchMyData({ client: app.client(bearer(value)) })).response!.status).toBe(200);
  });

  test('then nothing Bob received names Alice or her data, and Alice state is unchanged', async () => {
    expect(seenByBob.length).toBeGreaterThan(40);
    const everything = seenByBob.join('\n').toLowerCase();
    for (const secret of aliceSecrets) expect(everything, `Bob saw ${secret}`).not.toContain(secret.toLowerCase());
    expect(await aliceState()).toEqual(before);
  });
});

describe('API1: metering is per caller, also under concurrency', () => {
  test('when two users search at the same time, then each search lands in its caller history only', async () => {
    const carol = await app.userClient();
    const dave = await app.userClient();
    const searches = Array.from({ length: 20 }, (_, i) => {
      const [user, name] = i % 2 === 0 ? [carol, 'carol'] : [dave, 'dave'];
      return fetchSchoolSearch({ client: user.client, query: { query: `harvard ${name}${i}` } }).then((r) => ({
        name,
        tid: r.data!.apirequest.tid,
      }));
    });
    const done = await Promise.all(searches);
    for (const [user, name] of [
      [carol, 'carol'],
      [dave, 'dave'],
    ] as const) {
      const history = (await fetchMyRequests({ client: user.client })).data!;
      expect(history.total_count).toBe(10);
      expect(new Set(history.requests.map((r) => r.tid))).toEqual(
        new Set(done.filter((d) => d.name === name).map((d) => d.tid)),
      );
      for (const r of history.requests)
        expect(r.trequestmade).toMatch(new RegExp(`^search_schools:harvard ${name}\\d+$`));
      expect((await fetchMyData({ client: user.client })).data!.usage).toMatchObject({
        request_count: 10,
        total_cost: 10,
      });
    }
  });
});
