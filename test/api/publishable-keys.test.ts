// Publishable keys (issue 40): a page's key. It searches and reads schools, from the pages of
// its origins only, and nothing else; its owner creates, lists, renames, re-scopes, rotates and
// revokes it; every search through it is metered with the key and the page it came from.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  changePassword,
  createApiKey,
  createPublishableKey,
  createToken,
  fetchMyRequests,
  fetchMyUsage,
  getSchool,
  listMyTokens,
  revokeMyToken,
  rotateApiKey,
  updateApiKey,
} from '../../generated/sdk.gen.ts';
import type { ApiKey } from '../../generated/types.gen.ts';
import { zApiKey } from '../../generated/zod.gen.ts';
import { MAX_LIVE_PUBLISHABLE_KEYS } from '../../src/domain/accounts/keys.service.ts';
import { loadContractOperations } from '../support/contract-operations.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

const PAGE = 'https://www.example.org';
const DAY_MS = 86_400_000;
let app: TestApp;
let harvardId: string;
beforeAll(async () => {
  app = await startTestApp({ tokenTtlSeconds: 600 });
  const [harvard] = await app.seed([
    { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' },
    { schoolname: 'Howard University', city: 'Washington', stateprovince: 'DC' },
  ]);
  harvardId = harvard!.id;
});
afterAll(() => app.close());

type User = Awaited<ReturnType<TestApp['userClient']>>;

async function newPublishable(
  user: User,
  origins: string[] = [PAGE],
  extra: Partial<Parameters<typeof createPublishableKey>[0]['body']> = {},
): Promise<ApiKey> {
  const r = await createPublishableKey({
    client: user.client,
    body: { name: 'school field', origins, current_password: user.password, ...extra },
  });
  expect(r.response!.status).toBe(201);
  return zApiKey.parse(r.data);
}

/** A search as a page makes it: the key in the query string, the page's Origin (or Referer) header. */
function pageSearch(key: string, headers: Record<string, string> = { Origin: PAGE }, query = 'harvard') {
  return fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=${encodeURIComponent(query)}&key=${key}`, { headers });
}

async function problemOf(response: Response, status: number, slug: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as { type: string; detail: string };
  expect(body.type).toBe(`/problems/${slug}`);
  return body;
}

describe('createPublishableKey (POST /v1/publishable-keys)', () => {
  test('when a user creates one, then it is shown once with its own prefix, its origins and default budgets, and listed as publishable', async () => {
    const user = await app.userClient();
    const key = await newPublishable(user, ['https://WWW.Example.org:443', 'http://localhost:5173']);
    expect(key.token).toMatch(/^spk_/);
    expect(key.key_type).toBe('publishable');
    // Kept normalised: as a browser will send it.
    expect(key.publishable).toStrictEqual({
      origins: ['https://www.example.org', 'http://localhost:5173'],
      searches_per_minute: 300,
      searches_per_day: 100_000,
      visitor_searches_per_minute: 60,
    });
    expect(Date.parse(key.expires_at) - Date.parse(key.created_at)).toBe(365 * DAY_MS);
    const listed = (await listMyTokens({ client: user.client })).data!.tokens.find((t) => t.token_id === key.token_id);
    expect(listed).toMatchObject({ kind: 'key', key_type: 'publishable', name: 'school field' });
    expect(listed!.publishable!.origins).toStrictEqual(key.publishable!.origins);
    // A secret key says what it is too, and has no page settings.
    const secret = await createApiKey({ client: user.client, body: { name: 'sync', current_password: user.password } });
    expect(secret.data).toMatchObject({ key_type: 'secret' });
    expect(secret.data!.token).toMatch(/^ssk_/);
    expect(secret.data!.publishable).toBeUndefined();
  });

  test('when the password is wrong, then 403 wrong-password and no key', async () => {
    const user = await app.userClient();
    const r = await createPublishableKey({
      client: user.client,
      body: { name: 'x', origins: [PAGE], current_password: 'not-my-password' },
    });
    expectProblem(r, 403, 'wrong-password');
    expect((await listMyTokens({ client: user.client })).data!.tokens.filter((t) => t.kind === 'key')).toEqual([]);
  });

  test.each([
    ['a path', 'https://www.example.org/signup'],
    ['a query', 'https://www.example.org?x=1'],
    ['a trailing slash', 'https://www.example.org/'],
    ['every page', '*'],
    ['another scheme', 'ftp://files.example.org'],
    ['a wildcard inside a name', 'https://www.*.example.org'],
    ['a wildcard before a top-level domain only', 'https://*.org'],
    ['no scheme', 'www.example.org'],
  ])('when an origin has %s, then 400 naming the origins field and no key', async (_what, origin) => {
    const user = await app.userClient();
    const r = await createPublishableKey({
      client: user.client,
      body: { name: 'x', origins: [PAGE, origin], current_password: user.password },
      ...unchecked,
    });
    const problem = expectProblem(r, 400, 'validation-error');
    expect(problem.errors!.map((e) => e.name).join()).toMatch(/origins/);
    expect((await listMyTokens({ client: user.client })).data!.tokens.filter((t) => t.kind === 'key')).toEqual([]);
  });

  test('when more origins than the cap are asked for, or a budget beyond what the account may spend, then 400', async () => {
    const user = await app.userClient();
    const origins = Array.from({ length: 21 }, (_, i) => `https://site${i}.example.org`);
    const many = await createPublishableKey({
      client: user.client,
      body: { name: 'x', origins, current_password: user.password },
      ...unchecked,
    });
    expectProblem(many, 400, 'validation-error');
    const greedy = await createPublishableKey({
      client: user.client,
      body: { name: 'x', origins: [PAGE], searches_per_minute: 301, current_password: user.password },
    });
    expect(
      expectProblem(greedy, 400, 'validation-error')
        .errors!.map((e) => e.name)
        .join(),
    ).toMatch(/searches_per_minute/);
    const visitor = await createPublishableKey({
      client: user.client,
      body: {
        name: 'x',
        origins: [PAGE],
        searches_per_minute: 10,
        visitor_searches_per_minute: 11,
        current_password: user.password,
      },
    });
    expect(
      expectProblem(visitor, 400, 'validation-error')
        .errors!.map((e) => e.name)
        .join(),
    ).toMatch(/visitor_searches_per_minute/);
  });

  test(`when a user holds ${MAX_LIVE_PUBLISHABLE_KEYS} publishable keys, then the next is 409 too-many-keys, and secret keys are still possible`, async () => {
    const user = await app.userClient();
    for (let i = 0; i < MAX_LIVE_PUBLISHABLE_KEYS; i++) await newPublishable(user);
    const r = await createPublishableKey({
      client: user.client,
      body: { name: 'one more', origins: [PAGE], current_password: user.password },
    });
    expectProblem(r, 409, 'too-many-keys');
    const secret = await createApiKey({ client: user.client, body: { name: 'sync', current_password: user.password } });
    expect(secret.response!.status).toBe(201);
  });
});

describe('a publishable key at work', () => {
  test('when a listed page searches with it, then 200 with CORS for that page alone, and the record names the key and the page', async () => {
    const user = await app.userClient();
    const key = await newPublishable(user);
    const answer = await pageSearch(key.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(answer.headers.get('vary')).toMatch(/Origin/);
    const body = (await answer.json()) as { apirequest: { key_id?: string; origin?: string } };
    expect(body.apirequest).toMatchObject({ key_id: key.token_id, origin: PAGE });
    // The owner sees it in their history, and can filter by the key.
    const history = await fetchMyRequests({ client: user.client, query: { key_id: key.token_id } });
    expect(history.data!.requests).toHaveLength(1);
    expect(history.data!.requests[0]).toMatchObject({ key_id: key.token_id, origin: PAGE });
  });

  test('when a page sends no Origin but a Referer, then its origin is the Referer’s; with neither, or from another page, 403 origin-not-allowed naming it', async () => {
    const user = await app.userClient();
    const key = await newPublishable(user, [PAGE, 'https://*.district.example']);
    expect((await pageSearch(key.token, { Referer: `${PAGE}/signup?step=2` })).status).toBe(200);
    expect((await pageSearch(key.token, { Origin: 'https://a.b.district.example' })).status).toBe(200);

    const none = await problemOf(await pageSearch(key.token, {}), 403, 'origin-not-allowed');
    expect(none.detail).toMatch(/no Origin or Referer/);
    const other = await pageSearch(key.token, { Origin: 'https://evil.example' });
    const refused = await problemOf(other, 403, 'origin-not-allowed');
    expect(refused.detail).toContain('https://evil.example');
    // The key's own list is not told to a stranger.
    expect(refused.detail).not.toContain(PAGE);
    // The refusal is readable by that page (a problem tells it nothing), but carries no data.
    expect(other.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    expect(
      (await problemOf(await pageSearch(key.token, { Origin: 'https://district.example' }), 403, 'origin-not-allowed'))
        .type,
    ).toBe('/problems/origin-not-allowed');
    expect((await problemOf(await pageSearch(key.token, { Origin: 'null' }), 403, 'origin-not-allowed')).type).toBe(
      '/problems/origin-not-allowed',
    );
    // Refused searches are not metered.
    const history = await fetchMyRequests({ client: user.client, query: { key_id: key.token_id } });
    expect(history.data!.requests.map((r) => r.origin)).toStrictEqual(['https://a.b.district.example', PAGE]);
  });

  test('when the key reads a school, then 200 from a listed page and 403 from another', async () => {
    const user = await app.userClient();
    const key = await newPublishable(user);
    const read = await fetch(`${app.baseUrl}/v1/schools/${harvardId}?key=${key.token}`, { headers: { Origin: PAGE } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe(PAGE);
    const bearer = await getSchool({
      client: app.client({ Authorization: `Bearer ${key.token}`, Origin: PAGE }),
      path: { schoolId: harvardId },
    });
    expect(bearer.response!.status).toBe(200);
    await problemOf(
      await fetch(`${app.baseUrl}/v1/schools/${harvardId}?key=${key.token}`, {
        headers: { Origin: 'https://x.example' },
      }),
      403,
      'origin-not-allowed',
    );
  });

  test('when a secret key or garbage is put in `key`, then 401 unauthorized: only a publishable key travels in a URL', async () => {
    const user = await app.userClient();
    const secret = await createApiKey({ client: user.client, body: { name: 'sync', current_password: user.password } });
    await problemOf(await pageSearch(secret.data!.token), 401, 'unauthorized');
    await problemOf(await pageSearch('spk_not-a-key'), 401, 'unauthorized');
    await problemOf(await pageSearch(`spk_${'A'.repeat(43)}`), 401, 'unauthorized');
  });

  test('when a page holds a key, then every operation but search and a school read is 403 publishable-key-not-allowed, with the header or in the URL', async () => {
    const user = await app.userClient();
    const key = await newPublishable(user);
    const operations = loadContractOperations().filter(
      (o) => o.secured && o.operationId !== 'fetchSchoolSearch' && o.operationId !== 'getSchool',
    );
    expect(operations.map((o) => o.operationId)).toEqual(
      expect.arrayContaining([
        'fetchMyData',
        'fetchMyRequests',
        'createApiKey',
        'updateApiKey',
        'createPublishableKey',
      ]),
    );
    for (const operation of operations) {
      for (const how of ['header', 'query'] as const) {
        const url = new URL(`${app.baseUrl}${operation.url}`);
        if (how === 'query') url.searchParams.set('key', key.token);
        const r = await fetch(url, {
          method: operation.method.toUpperCase(),
          headers: {
            Origin: PAGE,
            ...(how === 'header' ? { Authorization: `Bearer ${key.token}` } : {}),
            ...(operation.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          ...(operation.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
        });
        const problem = await problemOf(r, 403, 'publishable-key-not-allowed');
        expect(problem.detail, `${operation.operationId} (${how})`).toMatch(/publishable key/i);
      }
    }
    // Nothing was changed by any of them: the key is still the user's only key, and alive.
    const keys = (await listMyTokens({ client: user.client })).data!.tokens.filter((t) => t.kind === 'key');
    expect(keys.map((k) => k.token_id)).toStrictEqual([key.token_id]);
    expect((await pageSearch(key.token)).status).toBe(200);
  });
});

describe('updateApiKey (PATCH /v1/keys/{tokenId})', () => {
  test('when the owner takes an origin off the key, then that page is refused at once; renamed and re-budgeted, the key says so', async () => {
    const user = await app.userClient();
    const key = await newPublishable(user, [PAGE, 'https://old.example.org']);
    expect((await pageSearch(key.token, { Origin: 'https://old.example.org' })).status).toBe(200);
    const r = await updateApiKey({
      client: user.client,
      path: { tokenId: key.token_id },
      body: { name: 'sign-up form', origins: [PAGE], searches_per_minute: 120 },
    });
    expect(r.response!.status).toBe(200);
    expect(r.data).toMatchObject({
      name: 'sign-up form',
      key_type: 'publishable',
      publishable: { origins: [PAGE], searches_per_minute: 120, visitor_searches_per_minute: 60 },
    });
    await problemOf(await pageSearch(key.token, { Origin: 'https://old.example.org' }), 403, 'origin-not-allowed');
    expect((await pageSearch(key.token)).status).toBe(200);
  });

  test('when origins or budgets are given for a secret key, then 400 and the key unchanged; its name can change', async () => {
    const user = await app.userClient();
    const secret = await createApiKey({ client: user.client, body: { name: 'sync', current_password: user.password } });
    const id = secret.data!.token_id;
    const r = await updateApiKey({ client: user.client, path: { tokenId: id }, body: { origins: [PAGE] } });
    expect(
      expectProblem(r, 400, 'validation-error')
        .errors!.map((e) => e.name)
        .join(),
    ).toMatch(/origins/);
    const renamed = await updateApiKey({ client: user.client, path: { tokenId: id }, body: { name: 'nightly' } });
    expect(renamed.data).toMatchObject({ name: 'nightly', key_type: 'secret' });
    expect(renamed.data!.publishable).toBeUndefined();
  });

  test("when the key is another user's, a session, or unknown, then 404 not-found; an empty change is 400", async () => {
    const owner = await app.userClient();
    const stranger = await app.userClient();
    const key = await newPublishable(owner);
    const theirs = await updateApiKey({
      client: stranger.client,
      path: { tokenId: key.token_id },
      body: { name: 'mine' },
    });
    expectProblem(theirs, 404, 'not-found');
    const session = (await listMyTokens({ client: owner.client })).data!.tokens.find((t) => t.kind === 'session')!;
    expectProblem(
      await updateApiKey({ client: owner.client, path: { tokenId: session.token_id }, body: { name: 'x' } }),
      404,
      'not-found',
    );
    expectProblem(
      await updateApiKey({ client: owner.client, path: { tokenId: key.token_id }, body: {} as never, ...unchecked }),
      400,
      'validation-error',
    );
    expect(
      (await listMyTokens({ client: owner.client })).data!.tokens.find((t) => t.token_id === key.token_id)!.name,
    ).toBe('school field');
  });
});

describe('rotation and revocation', () => {
  test('when a publishable key is rotated, then the old value is refused and the new one keeps the origins and budgets; revoked, it is refused', async () => {
    const user = await app.userClient();
    const key = await newPublishable(user, [PAGE], { searches_per_day: 5000 });
    const rotated = await rotateApiKey({
      client: user.client,
      path: { tokenId: key.token_id },
      body: { current_password: user.password },
    });
    expect(rotated.response!.status).toBe(200);
    const fresh = zApiKey.parse(rotated.data);
    expect(fresh.token).toMatch(/^spk_/);
    expect(fresh.publishable).toStrictEqual(key.publishable && { ...key.publishable, searches_per_day: 5000 });
    await problemOf(await pageSearch(key.token), 401, 'unauthorized');
    expect((await pageSearch(fresh.token)).status).toBe(200);
    expect((await revokeMyToken({ client: user.client, path: { tokenId: fresh.token_id } })).response!.status).toBe(
      204,
    );
    await problemOf(await pageSearch(fresh.token), 401, 'unauthorized');
  });

  test('when the owner changes their password, then the publishable key keeps working, unless the change asks for keys to go', async () => {
    const user = await app.userClient();
    const key = await newPublishable(user);
    const kept = await changePassword({
      client: user.client,
      body: { current_password: user.password, new_password: 'another-long-passphrase-2' },
    });
    expect(kept.response!.status).toBe(204);
    expect((await pageSearch(key.token)).status).toBe(200);
    const login = await createToken({
      client: app.client(),
      body: { email: user.email, password: 'another-long-passphrase-2' },
    });
    const session = app.client({ Authorization: `Bearer ${login.data!.token}` });
    const gone = await changePassword({
      client: session,
      body: {
        current_password: 'another-long-passphrase-2',
        new_password: 'a-third-long-passphrase-3',
        revoke_api_keys: true,
      },
    });
    expect(gone.response!.status).toBe(204);
    await problemOf(await pageSearch(key.token), 401, 'unauthorized');
  });
});

describe('fetchMyUsage by key and origin', () => {
  test('when searches come through two keys and pages, then usage splits by key and by origin, and key_id narrows it', async () => {
    const user = await app.userClient();
    const a = await newPublishable(user, [PAGE, 'https://shop.example.org']);
    const b = await newPublishable(user, [PAGE]);
    await pageSearch(a.token);
    await pageSearch(a.token, { Origin: 'https://shop.example.org' });
    await pageSearch(a.token, { Origin: 'https://shop.example.org' });
    await pageSearch(b.token);
    // And one with the session: no key, no origin.
    expect(
      (
        await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=howard`, {
          headers: { Authorization: `Bearer ${user.token}` },
        })
      ).status,
    ).toBe(200);
    const usage = await fetchMyUsage({ client: user.client, query: { days: 1 } });
    expect(usage.response!.status).toBe(200);
    const byKey = Object.fromEntries(usage.data!.by_key.map((k) => [k.key_id ?? 'none', k.request_count]));
    expect(byKey).toMatchObject({ [a.token_id]: 3, [b.token_id]: 1 });
    const byOrigin = Object.fromEntries(usage.data!.by_origin.map((o) => [o.origin ?? 'none', o.request_count]));
    expect(byOrigin).toMatchObject({ [PAGE]: 2, 'https://shop.example.org': 2 });
    const onlyA = await fetchMyUsage({ client: user.client, query: { days: 1, key_id: a.token_id } });
    expect(onlyA.data!.days.reduce((n, d) => n + d.request_count, 0)).toBe(3);
  });
});
