// POST/DELETE /v1/auth, POST /v1/auth/rotate, GET /v1/tokens, DELETE /v1/tokens/{tokenId},
// POST /v1/account/password, and bearer token handling on secured operations.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  changePassword,
  createApiKey,
  createToken,
  fetchMyData,
  fetchSchoolSearch,
  listMyTokens,
  revokeCurrentToken,
  revokeMyToken,
  rotateToken,
} from '../../generated/sdk.gen.ts';
import { zToken } from '../../generated/zod.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ tokenTtlSeconds: 600 });
});
afterAll(() => app.close());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function raw(path: string, init: RequestInit) {
  const response = await fetch(`${app.baseUrl}${path}`, init);
  return { response, error: await response.json() };
}

describe('createToken (POST /v1/auth)', () => {
  test('when the credentials are right, then a token of the spec shape is issued, not cacheable', async () => {
    await app.services.auth.createUser('Login@Example.com', 'password-123');
    const before = Date.now();
    const r = await createToken({
      client: app.client(),
      body: { email: 'login@example.com', password: 'password-123' },
    });
    expect(r.response!.status).toBe(200);
    expect(r.response!.headers.get('cache-control')).toBe('no-store');
    const token = zToken.parse(r.data);
    expect(token.token).toMatch(/^ssk_[A-Za-z0-9_-]{43}$/);
    expect(token.expires_in).toBe(600);
    expect(token.token_type).toBe('Bearer');
    const expiresAt = Date.parse(token.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 600_000 + 1000);
    const me = await fetchMyData({ client: app.client(bearer(token.token)) });
    expect(me.data?.userId).toBe(token.userId);
  });

  test('when the e-mail differs only in case, then it still logs in', async () => {
    await app.services.auth.createUser('case@example.com', 'password-123');
    const r = await createToken({
      client: app.client(),
      body: { email: 'CASE@Example.COM', password: 'password-123' },
    });
    expect(r.response!.status).toBe(200);
  });

  test('when the password is wrong or the e-mail unknown, then both answers are the same 401', async () => {
    await app.services.auth.createUser('victim@example.com', 'password-123');
    const wrong = await createToken({
      client: app.client(),
      body: { email: 'victim@example.com', password: 'nope-nope' },
    });
    const unknown = await createToken({
      client: app.client(),
      body: { email: 'nobody@example.com', password: 'nope-nope' },
    });
    const a = expectProblem(wrong, 401, 'invalid-credentials');
    const b = expectProblem(unknown, 401, 'invalid-credentials');
    expect(a.detail).toBe(b.detail);
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  });

  test('when a field is missing, then 400 names it', async () => {
    const r = await createToken({ client: app.client(), body: { email: 'a@example.com' } as never, ...unchecked });
    const p = expectProblem(r, 400, 'validation-error');
    expect(p.errors).toContainEqual(expect.objectContaining({ location: 'body' }));
    expect(p.detail).toMatch(/password/);
  });

  test('when the e-mail is not an e-mail, then 400', async () => {
    const r = await createToken({ client: app.client(), body: { email: 'not-an-email', password: 'x' }, ...unchecked });
    expectProblem(r, 400, 'validation-error');
  });

  test('when the body has an unknown field (mass assignment, operator injection), then 400', async () => {
    const r = await createToken({
      client: app.client(),
      body: { email: 'a@example.com', password: 'x', $where: '1', userId: 'x' } as never,
      ...unchecked,
    });
    expectProblem(r, 400, 'validation-error');
  });

  test('when the body is not JSON, then 400 malformed-json', async () => {
    const r = await raw('/v1/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expectProblem(r, 400, 'malformed-json');
  });

  test('when the body is not application/json, then 415', async () => {
    const r = await raw('/v1/auth', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expectProblem(r, 415, 'unsupported-media-type');
  });

  test('when the body is larger than 16 KiB, then 413', async () => {
    const body = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(20_000) });
    const r = await raw('/v1/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expectProblem(r, 413, 'payload-too-large');
  });
});

describe('bearer tokens on secured operations', () => {
  test('when there is no token, then 401 with a bare Bearer challenge', async () => {
    const r = await fetchMyData({ client: app.client() });
    expectProblem(r, 401, 'unauthorized');
    expect(r.response!.headers.get('www-authenticate')).toBe('Bearer realm="school-search"');
  });

  test.each([
    ['malformed', 'Bearer not-a-token'],
    ['truncated', 'Bearer ssk_abc'],
    ['well-formed but unknown', `Bearer ssk_${'A'.repeat(43)}`],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
  ])('when the token is %s, then 401', async (_name, header) => {
    const r = await fetchMyData({ client: app.client({ Authorization: header }) });
    expectProblem(r, 401, 'unauthorized');
    expect(r.response!.headers.get('www-authenticate')).toMatch(/^Bearer realm="school-search"/);
  });

  test('when a live token is sent under another scheme word, then 401', async () => {
    const { token } = await app.userClient();
    const r = await fetchMyData({ client: app.client({ Authorization: `Token ${token}` }) });
    expectProblem(r, 401, 'unauthorized');
  });

  test('when a live token is truncated by one character, then 401', async () => {
    const { token } = await app.userClient();
    const r = await fetchMyData({ client: app.client(bearer(token.slice(0, -1))) });
    expectProblem(r, 401, 'unauthorized');
    expect(r.response!.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  test('when the token has expired, then 401 invalid_token', async () => {
    const local = await startTestApp({ tokenTtlSeconds: 60 });
    try {
      const { token } = await local.userClient();
      expect((await fetchMyData({ client: local.client(bearer(token)) })).response!.status).toBe(200);
      local.clock.advance(61);
      const r = await fetchMyData({ client: local.client(bearer(token)) });
      expectProblem(r, 401, 'unauthorized');
      expect(r.response!.headers.get('www-authenticate')).toContain('error="invalid_token"');
    } finally {
      await local.close();
    }
  });

  test('when the token is one second from expiry, then it still works', async () => {
    const local = await startTestApp({ tokenTtlSeconds: 60 });
    try {
      const { token } = await local.userClient();
      local.clock.advance(59);
      expect((await fetchMyData({ client: local.client(bearer(token)) })).response!.status).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('fetchSchoolSearch tokenID (deprecated query parameter)', () => {
  test('when the token comes only as tokenID, then it authenticates', async () => {
    const { token } = await app.userClient();
    const r = await fetchSchoolSearch({ client: app.client(), query: { query: 'x', tokenID: token } });
    expect(r.response!.status).toBe(200);
  });

  test('when tokenID carries characters a client does not percent-encode, then 401, not 400', async () => {
    const r = await raw(`/v1/fetchSchoolSearch?query=x&tokenID=ssk_it's(*)!`, {});
    expectProblem(r, 401, 'unauthorized');
  });

  test('when tokenID carries a revoked token, then 401', async () => {
    const user = await app.userClient();
    await revokeCurrentToken({ client: user.client });
    const r = await fetchSchoolSearch({ client: app.client(), query: { query: 'x', tokenID: user.token } });
    expectProblem(r, 401, 'unauthorized');
  });

  test('when the header is bad and tokenID is good, then the header wins: 401', async () => {
    const { token } = await app.userClient();
    const r = await fetchSchoolSearch({ client: app.client(bearer('ssk_bad')), query: { query: 'x', tokenID: token } });
    expectProblem(r, 401, 'unauthorized');
  });

  test('when the header is good, then it is used and tokenID is not stored in the record', async () => {
    const user = await app.userClient();
    const r = await fetchSchoolSearch({ client: user.client, query: { query: 'lincoln', tokenID: 'ssk_garbage' } });
    expect(r.response!.status).toBe(200);
    expect(r.data?.apirequest.trequestmade).toBe('search_schools:lincoln');
  });

  test('when tokenID is the only token on an operation that does not declare it, then 401', async () => {
    const { token } = await app.userClient();
    expectProblem(await raw(`/v1/fetchMyData?tokenID=${token}`, {}), 401, 'unauthorized');
  });

  test('when tokenID is sent beside a good header to an operation that does not declare it, then 400', async () => {
    const { token } = await app.userClient();
    expectProblem(await raw(`/v1/fetchMyData?tokenID=${token}`, { headers: bearer(token) }), 400, 'validation-error');
  });
});

describe('revokeCurrentToken (DELETE /v1/auth)', () => {
  test('when the caller logs out, then that token stops working at once and others keep working', async () => {
    const user = await app.userClient();
    const other = await app.services.auth.login(user.email, user.password);
    const r = await revokeCurrentToken({ client: user.client });
    expect(r.response!.status).toBe(204);
    expectProblem(await fetchMyData({ client: user.client }), 401, 'unauthorized');
    expect((await fetchMyData({ client: app.client(bearer(other.value)) })).response!.status).toBe(200);
  });

  test('when there is no token, then 401', async () => {
    expectProblem(await revokeCurrentToken({ client: app.client() }), 401, 'unauthorized');
  });
});

describe('rotateToken (POST /v1/auth/rotate)', () => {
  test('when the caller rotates, then the new token works and the old one is revoked', async () => {
    const user = await app.userClient();
    const r = await rotateToken({ client: user.client });
    expect(r.response!.status).toBe(200);
    expect(r.response!.headers.get('cache-control')).toBe('no-store');
    const next = zToken.parse(r.data);
    expect(next.token).not.toBe(user.token);
    expect(next.userId).toBe(user.userId);
    expectProblem(await fetchMyData({ client: user.client }), 401, 'unauthorized');
    expect((await fetchMyData({ client: app.client(bearer(next.token)) })).response!.status).toBe(200);
  });

  test('when a session is rotated again and again, then it ends at session_expires_at all the same (12 h after the password was given), and a login starts a new one', async () => {
    // A stolen one-hour session used to live for ever by rotation (issue 38, row 6).
    const a = await startTestApp({ tokenTtlSeconds: 3600 });
    try {
      const user = await a.userClient();
      const login = async () =>
        (await createToken({ client: a.client(), body: { email: user.email, password: user.password } })).data!;
      const first = await login();
      const end = Date.parse(first.session_expires_at);
      expect(end - Date.parse(first.expires_at)).toBe(11 * 3600_000);
      let token = first.token;
      let rotations = 0;
      for (;;) {
        a.clock.advance(3300);
        const r = await rotateToken({ client: a.client(bearer(token)) });
        expect(r.response!.status).toBe(200);
        expect(Date.parse(r.data!.session_expires_at)).toBe(end);
        expect(Date.parse(r.data!.expires_at)).toBeLessThanOrEqual(end);
        token = r.data!.token;
        rotations++;
        if (Date.parse(r.data!.expires_at) === end) break;
        expect(rotations).toBeLessThan(14);
      }
      expect(rotations).toBe(12);
      a.clock.advance(3600);
      expectProblem(await fetchMyData({ client: a.client(bearer(token)) }), 401, 'unauthorized');
      expectProblem(await rotateToken({ client: a.client(bearer(token)) }), 401, 'unauthorized');
      expect(Date.parse((await login()).session_expires_at)).toBeGreaterThan(end);
    } finally {
      await a.close();
    }
  });

  test('when the rotated-away token is used to rotate again, then 401', async () => {
    const user = await app.userClient();
    await rotateToken({ client: user.client });
    expectProblem(await rotateToken({ client: user.client }), 401, 'unauthorized');
  });

  test('when there is no token, then 401', async () => {
    expectProblem(await rotateToken({ client: app.client() }), 401, 'unauthorized');
  });

  test('when an API key is presented, then 403 not-a-session and the key still works', async () => {
    const user = await app.userClient();
    const key = await createApiKey({ client: user.client, body: { name: 'cron', current_password: user.password } });
    const withKey = app.client(bearer(key.data!.token));
    const problem = expectProblem(await rotateToken({ client: withKey }), 403, 'not-a-session');
    expect(problem.detail).toContain('/v1/keys/{tokenId}/rotate');
    expect((await fetchMyData({ client: withKey })).response!.status).toBe(200);
    const keys = (await listMyTokens({ client: user.client })).data!.tokens.filter((t) => t.kind === 'key');
    expect(keys.map((t) => t.token_id)).toEqual([key.data!.token_id]);
  });
});

describe('listMyTokens (GET /v1/tokens)', () => {
  test('when the caller has several tokens, then the live ones are listed newest first, the current one marked, without values', async () => {
    const user = await app.userClient();
    const second = await app.services.auth.login(user.email, user.password);
    const dead = await app.services.auth.login(user.email, user.password);
    await app.services.auth.revokeById(await app.services.auth.authenticate(dead.value), dead.tokenId);
    const r = await listMyTokens({ client: app.client(bearer(second.value)) });
    expect(r.response!.status).toBe(200);
    const tokens = r.data!.tokens;
    expect(tokens).toHaveLength(2);
    expect(tokens[0]!.token_id).toBe(second.tokenId);
    expect(tokens.filter((t) => t.current).map((t) => t.token_id)).toEqual([second.tokenId]);
    expect(tokens[0]!.hint).toBe(second.value.slice(0, 8));
    expect(JSON.stringify(r.data)).not.toContain(second.value);
    expect(JSON.stringify(r.data)).not.toContain(user.token);
  });

  test('when there is no token, then 401', async () => {
    expectProblem(await listMyTokens({ client: app.client() }), 401, 'unauthorized');
  });

  test('when a user logs in more than 100 times, then the oldest tokens are revoked and 100 stay live', async () => {
    const user = await app.userClient();
    const issued: string[] = [user.token];
    for (let i = 0; i < 101; i++) issued.push((await app.services.auth.login(user.email, user.password)).value);
    const newest = app.client(bearer(issued.at(-1)!));
    const r = await listMyTokens({ client: newest });
    expect(r.data!.tokens).toHaveLength(100);
    expectProblem(await fetchMyData({ client: app.client(bearer(issued[0]!)) }), 401, 'unauthorized');
    expectProblem(await fetchMyData({ client: app.client(bearer(issued[1]!)) }), 401, 'unauthorized');
    expect((await fetchMyData({ client: app.client(bearer(issued[2]!)) })).response!.status).toBe(200);
    expect((await fetchMyData({ client: newest })).data!.active_tokens).toBe(100);
  });
});

describe('revokeMyToken (DELETE /v1/tokens/{tokenId})', () => {
  test('when the caller revokes one of their other tokens, then it stops working', async () => {
    const user = await app.userClient();
    const other = await app.services.auth.login(user.email, user.password);
    const r = await revokeMyToken({ client: user.client, path: { tokenId: other.tokenId } });
    expect(r.response!.status).toBe(204);
    expectProblem(await fetchMyData({ client: app.client(bearer(other.value)) }), 401, 'unauthorized');
    expectProblem(await revokeMyToken({ client: user.client, path: { tokenId: other.tokenId } }), 404, 'not-found');
  });

  test('when the id is unknown, then 404', async () => {
    const user = await app.userClient();
    const r = await revokeMyToken({ client: user.client, path: { tokenId: '00000000-0000-4000-8000-000000000000' } });
    expectProblem(r, 404, 'not-found');
  });

  test('when the id is not a UUID, then 400', async () => {
    const user = await app.userClient();
    const r = await revokeMyToken({ client: user.client, path: { tokenId: 'not-a-uuid' }, ...unchecked });
    expectProblem(r, 400, 'validation-error');
  });

  test('when there is no token, then 401', async () => {
    const r = await revokeMyToken({ client: app.client(), path: { tokenId: '00000000-0000-4000-8000-000000000000' } });
    expectProblem(r, 401, 'unauthorized');
  });
});

describe('changePassword (POST /v1/account/password)', () => {
  async function withSessions(count: number) {
    const user = await app.userClient(undefined, 'old-password-123');
    const others = [];
    for (let i = 0; i < count; i++) others.push(await app.services.auth.login(user.email, 'old-password-123'));
    return { user, others };
  }

  test('when the current password is right, then 204, the new one signs in, the old one no more, every other token is revoked and this one keeps working', async () => {
    const { user, others } = await withSessions(2);
    const r = await changePassword({
      client: user.client,
      body: { current_password: 'old-password-123', new_password: 'new-password-456' },
    });
    expect(r.response!.status).toBe(204);
    expectProblem(
      await createToken({ client: app.client(), body: { email: user.email, password: 'old-password-123' } }),
      401,
      'invalid-credentials',
    );
    expect(
      (await createToken({ client: app.client(), body: { email: user.email, password: 'new-password-456' } })).response!
        .status,
    ).toBe(200);
    for (const other of others)
      expectProblem(
        await fetchMyData({ client: app.client({ Authorization: `Bearer ${other.value}` }) }),
        401,
        'unauthorized',
      );
    expect((await fetchMyData({ client: user.client })).response!.status).toBe(200);
  });

  test('when the current password is wrong, then 403 wrong-password (not 401: the token is fine), and nothing changes', async () => {
    const { user, others } = await withSessions(1);
    const r = await changePassword({
      client: user.client,
      body: { current_password: 'not-the-password', new_password: 'new-password-456' },
      ...unchecked,
    });
    expectProblem(r, 403, 'wrong-password');
    expect(
      (await fetchMyData({ client: app.client({ Authorization: `Bearer ${others[0]!.value}` }) })).response!.status,
    ).toBe(200);
    expect(
      (await createToken({ client: app.client(), body: { email: user.email, password: 'old-password-123' } })).response!
        .status,
    ).toBe(200);
  });

  test.each([
    ['a new password of 7 characters', { current_password: 'old-password-123', new_password: 'short-7' }],
    ['no current password', { new_password: 'new-password-456' }],
    [
      'an unknown field',
      { current_password: 'old-password-123', new_password: 'new-password-456', email: 'x@example.com' },
    ],
  ])('when the body has %s, then 400 and the password is unchanged', async (_what, body) => {
    const { user } = await withSessions(0);
    expectProblem(
      await changePassword({ client: user.client, body: body as never, ...unchecked }),
      400,
      'validation-error',
    );
    expect(
      (await createToken({ client: app.client(), body: { email: user.email, password: 'old-password-123' } })).response!
        .status,
    ).toBe(200);
  });

  test('when there is no token, then 401', async () => {
    expectProblem(
      await changePassword({
        client: app.client(),
        body: { current_password: 'x', new_password: 'new-password-456' },
        ...unchecked,
      }),
      401,
      'unauthorized',
    );
  });
});
