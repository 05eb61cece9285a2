// Named API keys: POST /v1/keys, POST /v1/keys/{tokenId}/rotate, and keys among the tokens of
// GET /v1/tokens and DELETE /v1/tokens/{tokenId}. A key is a token: it authenticates like one.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  changePassword,
  createApiKey,
  fetchMyData,
  fetchSchoolSearch,
  listMyTokens,
  revokeMyToken,
  rotateApiKey,
} from '../../generated/sdk.gen.ts';
import { zApiKey } from '../../generated/zod.gen.ts';
import { MAX_LIVE_TOKENS } from '../../src/domain/accounts/credentials.ts';
import { MAX_LIVE_KEYS } from '../../src/domain/accounts/keys.service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

const DAY_MS = 86_400_000;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ tokenTtlSeconds: 600 });
  await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
});
afterAll(() => app.close());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
type User = Awaited<ReturnType<TestApp['userClient']>>;

async function newKey(user: User, name = 'nightly sync', days?: number) {
  const r = await createApiKey({
    client: user.client,
    body: { name, ...(days === undefined ? {} : { expires_in_days: days }), current_password: user.password },
  });
  expect(r.response!.status).toBe(201);
  return zApiKey.parse(r.data);
}

async function listed(user: User, tokenId: string) {
  return (await listMyTokens({ client: user.client })).data!.tokens.find((t) => t.token_id === tokenId);
}

const search = (token: string) => fetchSchoolSearch({ client: app.client(bearer(token)), query: { query: 'harvard' } });

describe('createApiKey (POST /v1/keys)', () => {
  test('when the current password is wrong or missing, then 403 wrong-password (400 when missing) and no key', async () => {
    const user = await app.userClient();
    const wrong = await createApiKey({ client: user.client, body: { name: 'stolen', current_password: 'guess-1234' } });
    expectProblem(wrong, 403, 'wrong-password');
    const missing = await createApiKey({ client: user.client, body: { name: 'stolen' } as never, ...unchecked });
    expect(expectProblem(missing, 400, 'validation-error').errors!.map((e) => e.name)).toContain('/current_password');
    expect((await listMyTokens({ client: user.client })).data!.tokens.filter((t) => t.kind === 'key')).toEqual([]);
    // The session is fine: a 403, not a 401.
    expect((await listMyTokens({ client: user.client })).response!.status).toBe(200);
  });

  test('when a user creates a key, then it is shown once, searches as that user, and is listed as a key with its name', async () => {
    const user = await app.userClient();
    const before = app.clock.now().getTime();
    const r = await createApiKey({
      client: user.client,
      body: { name: 'nightly sync', current_password: user.password },
    });
    expect(r.response!.status).toBe(201);
    expect(r.response!.headers.get('cache-control')).toBe('no-store');
    const key = zApiKey.parse(r.data);
    expect(key).toMatchObject({ name: 'nightly sync', token_type: 'Bearer', hint: key.token.slice(0, 8) });
    // 90 days by default.
    expect(Date.parse(key.expires_at) - Date.parse(key.created_at)).toBe(90 * DAY_MS);
    expect(Date.parse(key.created_at)).toBeGreaterThanOrEqual(before);

    const found = await search(key.token);
    expect(found.response!.status).toBe(200);
    expect(found.data!.requestresult.total_count).toBe(1);
    expect((await fetchMyData({ client: app.client(bearer(key.token)) })).data!.userId).toBe(user.userId);

    const info = await listed(user, key.token_id);
    expect(info).toMatchObject({
      kind: 'key',
      name: 'nightly sync',
      hint: key.hint,
      created_at: key.created_at,
      expires_at: key.expires_at,
      current: false,
    });
    // The key was used by the search above.
    expect(info!.last_used_at).not.toBeNull();
    // Nothing in the list can be used as the key.
    expect(JSON.stringify(await listMyTokens({ client: user.client }))).not.toContain(key.token.slice(8));
  });

  test('when a lifetime is chosen, then the key lives exactly that many days, up to 365', async () => {
    const user = await app.userClient();
    for (const days of [1, 365]) {
      const key = await newKey(user, `for ${days} days`, days);
      expect(Date.parse(key.expires_at) - Date.parse(key.created_at)).toBe(days * DAY_MS);
    }
  });

  test.each([
    ['64 emoji (one character each, 128 UTF-16 units)', '\u{1F600}'.repeat(64)],
    ['a flag and accented letters', '\u{1F1E8}\u{1F1E6} \u00c9cole sync'],
    ['an emoji with a skin tone and a variation selector', 'deploy \u{1F44D}\u{1F3FD} \u2764\uFE0F'],
    ['right-to-left text', '\u05de\u05e4\u05ea\u05d7 \u05dc\u05d9\u05dc\u05d9'],
    ['Vietnamese, two marks on a letter', 'Tr\u01b0\u1eddng h\u1ecdc \u0065\u0302\u0301'],
  ])('when the name has %s, then the key is created with that name', async (_label, name) => {
    const user = await app.userClient();
    const r = await createApiKey({ client: user.client, body: { name, current_password: user.password } });
    expect(r.response!.status).toBe(201);
    expect(r.data!.name).toBe(name);
  });

  test.each([
    ['a lifetime of 366 days', { name: 'k', expires_in_days: 366 }, '/expires_in_days'],
    ['a lifetime of 0 days', { name: 'k', expires_in_days: 0 }, '/expires_in_days'],
    ['a fractional lifetime', { name: 'k', expires_in_days: 1.5 }, '/expires_in_days'],
    ['an empty name', { name: '' }, '/name'],
    ['a name of spaces only', { name: '   ' }, '/name'],
    ['a name with a line break', { name: 'two\nlines' }, '/name'],
    ['a name of 65 characters', { name: 'x'.repeat(65) }, '/name'],
    ['a right-to-left override (\\u202E: "gpj.exe" shows as "exe.jpg")', { name: '\u202Egpj.exe' }, '/name'],
    ['a bidi isolate', { name: 'a\u2067b' }, '/name'],
    ['a zero-width space', { name: 'nightly\u200Bsync' }, '/name'],
    ['a zero-width joiner', { name: 'a\u200Db' }, '/name'],
    ['a byte order mark', { name: '\uFEFFkey' }, '/name'],
    ['a C1 control character', { name: 'a\u0085b' }, '/name'],
    ['a lone high surrogate', { name: 'key \uD83D' }, '/name'],
    ['a lone low surrogate', { name: '\uDE00 key' }, '/name'],
    ['a Unicode tag character', { name: 'key\u{E0041}' }, '/name'],
    ['only invisible characters', { name: '\u3164\u3164' }, '/name'],
    ['only white space and a format character', { name: ' \u2060 ' }, '/name'],
    // Default-ignorable characters draw nothing: a key of them was a blank row (issue 38).
    ['only a variation selector', { name: '\uFE0F' }, '/name'],
    ['only another variation selector', { name: '\uFE00' }, '/name'],
    ['only a supplementary variation selector', { name: '\u{E0100}' }, '/name'],
    ['only a combining grapheme joiner', { name: '\u034F' }, '/name'],
    ['only a Khmer inherent vowel', { name: '\u17B4' }, '/name'],
    ['only a Mongolian free variation selector', { name: '\u180B' }, '/name'],
    ['64 variation selectors', { name: '\uFE0F'.repeat(64) }, '/name'],
    // Combining marks piled on one letter draw over the rows around it.
    ['63 combining marks on one letter', { name: `a${'\u0301'.repeat(63)}` }, '/name'],
    ['five combining marks on one letter', { name: `nightly a${'\u0301\u0302\u0303\u0304\u0305'}` }, '/name'],
    ['65 emoji', { name: '\u{1F600}'.repeat(65) }, '/name'],
    ['no name', { expires_in_days: 30 }, '/name'],
    ['a user id', { name: 'k', userId: '00000000-0000-4000-8000-000000000000' }, '/userId'],
  ])('when the body has %s, then 400 validation-error naming it, and no key', async (_label, body, pointer) => {
    const user = await app.userClient();
    const r = await createApiKey({
      client: user.client,
      body: { current_password: user.password, ...body } as never,
      ...unchecked,
    });
    const problem = expectProblem(r, 400, 'validation-error');
    expect(problem.errors!.map((e) => e.name)).toContain(pointer);
    expect((await listMyTokens({ client: user.client })).data!.tokens.filter((t) => t.kind === 'key')).toEqual([]);
  });

  test(`when a user holds ${MAX_LIVE_KEYS} live keys, then one more is 409 too-many-keys, until one is revoked`, async () => {
    const user = await app.userClient();
    const keys = [];
    for (let i = 0; i < MAX_LIVE_KEYS; i++) keys.push(await newKey(user, `key ${i}`));
    const refused = await createApiKey({
      client: user.client,
      body: { name: 'one too many', current_password: user.password },
    });
    expectProblem(refused, 409, 'too-many-keys');
    expect((await listMyTokens({ client: user.client })).data!.tokens.filter((t) => t.kind === 'key')).toHaveLength(
      MAX_LIVE_KEYS,
    );
    expect((await revokeMyToken({ client: user.client, path: { tokenId: keys[0]!.token_id } })).response!.status).toBe(
      204,
    );
    await newKey(user, 'room again');
    // Another user is not limited by this one's keys.
    await newKey(await app.userClient(), 'elsewhere');
  });

  test('when the key is used again within a minute, then last_used_at stays; a minute later it moves', async () => {
    const user = await app.userClient();
    const key = await newKey(user);
    expect((await listed(user, key.token_id))!.last_used_at).toBeNull();
    await search(key.token);
    const first = (await listed(user, key.token_id))!.last_used_at!;
    app.clock.advance(30);
    await search(key.token);
    expect((await listed(user, key.token_id))!.last_used_at).toBe(first);
    app.clock.advance(31);
    await search(key.token);
    expect(Date.parse((await listed(user, key.token_id))!.last_used_at!)).toBeGreaterThanOrEqual(
      Date.parse(first) + 60_000,
    );
  });

  test(`when a user logs in more than ${MAX_LIVE_TOKENS} times, then the oldest sessions go and the keys stay`, async () => {
    const user = await app.userClient();
    const key = await newKey(user);
    for (let i = 0; i < MAX_LIVE_TOKENS + 1; i++) await app.services.auth.login(user.email, user.password);
    expect((await search(key.token)).response!.status).toBe(200);
    const tokens = (await listMyTokens({ client: app.client(bearer(key.token)) })).data!.tokens;
    expect(tokens.filter((t) => t.kind === 'session')).toHaveLength(MAX_LIVE_TOKENS);
    expect(tokens.filter((t) => t.kind === 'key').map((t) => t.token_id)).toEqual([key.token_id]);
  });

  test('when the key expires, then it is 401 and no longer listed', async () => {
    const user = await app.userClient();
    const key = await newKey(user, 'short', 1);
    app.clock.advance(86_400);
    expectProblem(await search(key.token), 401, 'unauthorized');
    const fresh = await app.services.auth.login(user.email, user.password);
    expect((await listMyTokens({ client: app.client(bearer(fresh.value)) })).data!.tokens.map((t) => t.kind)).toEqual([
      'session',
    ]);
  });

  test('when the user changes the password, then the keys keep working; asked to, they are revoked with every other token', async () => {
    const user = await app.userClient();
    const key = await newKey(user);
    const r = await changePassword({
      client: user.client,
      body: { current_password: user.password, new_password: 'a-new-password-1' },
    });
    expect(r.response!.status).toBe(204);
    expect((await search(key.token)).response!.status).toBe(200);
    const withKeys = await changePassword({
      client: user.client,
      body: { current_password: 'a-new-password-1', new_password: 'a-new-password-2', revoke_api_keys: true },
    });
    expect(withKeys.response!.status).toBe(204);
    expectProblem(await search(key.token), 401, 'unauthorized');
    // The session that asked stays signed in.
    expect((await listMyTokens({ client: user.client })).response!.status).toBe(200);
  });

  test('when a key is revoked by its token_id, then it is 401 at once', async () => {
    const user = await app.userClient();
    const key = await newKey(user);
    expect((await revokeMyToken({ client: user.client, path: { tokenId: key.token_id } })).response!.status).toBe(204);
    expectProblem(await search(key.token), 401, 'unauthorized');
    expect(await listed(user, key.token_id)).toBeUndefined();
  });
});

describe('rotateApiKey (POST /v1/keys/{tokenId}/rotate)', () => {
  test('when the current password is wrong or missing, then nothing is rotated and the key keeps working', async () => {
    const user = await app.userClient();
    const key = await newKey(user, 'ci runner', 30);
    const wrong = await rotateApiKey({
      client: user.client,
      path: { tokenId: key.token_id },
      body: { current_password: 'guess-1234' },
    });
    expectProblem(wrong, 403, 'wrong-password');
    const missing = await rotateApiKey({
      client: user.client,
      path: { tokenId: key.token_id },
      body: {} as never,
      ...unchecked,
    });
    expect(expectProblem(missing, 400, 'validation-error').errors!.map((e) => e.name)).toContain('/current_password');
    expect((await fetchMyData({ client: app.client(bearer(key.token)) })).response!.status).toBe(200);
  });

  test('when a key is rotated, then the old value is 401, the new one works, with the same name and lifetime', async () => {
    const user = await app.userClient();
    const old = await newKey(user, 'ci runner', 30);
    app.clock.advance(60);
    const r = await rotateApiKey({
      client: user.client,
      path: { tokenId: old.token_id },
      body: { current_password: user.password },
    });
    expect(r.response!.status).toBe(200);
    expect(r.response!.headers.get('cache-control')).toBe('no-store');
    const next = zApiKey.parse(r.data);
    expect(next.name).toBe('ci runner');
    expect(next.token_id).not.toBe(old.token_id);
    expect(next.token).not.toBe(old.token);
    expect(Date.parse(next.expires_at) - Date.parse(next.created_at)).toBe(30 * DAY_MS);
    expect(Date.parse(next.created_at)).toBeGreaterThan(Date.parse(old.created_at));

    expectProblem(await search(old.token), 401, 'unauthorized');
    expect((await search(next.token)).response!.status).toBe(200);
    const keys = (await listMyTokens({ client: user.client })).data!.tokens.filter((t) => t.kind === 'key');
    expect(keys.map((k) => k.token_id)).toEqual([next.token_id]);
  });

  test('when the key rotates itself, then the answer carries the new value and the old one is dead', async () => {
    const user = await app.userClient();
    const old = await newKey(user);
    const r = await rotateApiKey({
      client: app.client(bearer(old.token)),
      path: { tokenId: old.token_id },
      body: { current_password: user.password },
    });
    expect(r.response!.status).toBe(200);
    expectProblem(await search(old.token), 401, 'unauthorized');
    expect((await search(r.data!.token)).response!.status).toBe(200);
  });

  test('when the id is a rotated-out key, a revoked key, a session token or unknown, then the same 404', async () => {
    const user = await app.userClient();
    const rotated = await newKey(user, 'rotated');
    await rotateApiKey({
      client: user.client,
      path: { tokenId: rotated.token_id },
      body: { current_password: user.password },
    });
    const revoked = await newKey(user, 'revoked');
    await revokeMyToken({ client: user.client, path: { tokenId: revoked.token_id } });
    const session = (await listMyTokens({ client: user.client })).data!.tokens.find((t) => t.current)!.token_id;
    for (const tokenId of [rotated.token_id, revoked.token_id, session, '00000000-0000-4000-8000-000000000000']) {
      const problem = expectProblem(
        await rotateApiKey({ client: user.client, path: { tokenId }, body: { current_password: user.password } }),
        404,
        'not-found',
      );
      expect(problem.detail).toBe('There is no such API key.');
    }
    // The session whose id was tried is untouched.
    expect((await fetchMyData({ client: user.client })).response!.status).toBe(200);
  });

  test('when the id is not a UUID, then 400 validation-error', async () => {
    const user = await app.userClient();
    const r = await rotateApiKey({
      client: user.client,
      path: { tokenId: 'not-a-uuid' },
      body: { current_password: user.password },
      ...unchecked,
    });
    expectProblem(r, 400, 'validation-error');
  });
});
