// OWASP API2:2023 Broken Authentication. Every secured operation of the contract refuses every
// kind of dead or forged credential with the same 401, no credential travels in a URL (except the
// deprecated tokenID on search, spec §4.5), and a login cannot tell an unknown e-mail from a wrong
// password, by status, body, headers or time. Brute force: test/rate-limit/login-defaults.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as sdk from '../../generated/sdk.gen.ts';
import { tokenDigest } from '../../src/domain/accounts/token.ts';
import { Argon2Hasher } from '../../src/security/argon2.hasher.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem } from '../support/problem.ts';
import { answer, concretePath, contractOperations, median } from '../support/raw-http.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ tokenTtlSeconds: 3600 });
});
afterAll(() => app.close());

/** Bodies the operations accept (a wrong current password: nothing changes if it ever ran). */
const BODIES: Record<string, string | undefined> = {
  changePassword: JSON.stringify({ current_password: 'not-the-password', new_password: 'never-set-password' }),
  createApiKey: JSON.stringify({ name: 'attacker key', expires_in_days: 365, current_password: 'not-the-password' }),
  rotateApiKey: JSON.stringify({ current_password: 'not-the-password' }),
  createPublishableKey: JSON.stringify({
    name: 'attacker page',
    origins: ['https://evil.example'],
    current_password: 'not-the-password',
  }),
  updateApiKey: JSON.stringify({ name: 'renamed by an attacker' }),
};

/** Every operation the contract secures, as a request the server would otherwise accept. */
const SECURED = contractOperations()
  .filter((op) => op.secured)
  .map((op) => ({
    operationId: op.operationId,
    method: op.method,
    url: concretePath(op.path) + (op.operationId === 'fetchSchoolSearch' ? '?query=harvard' : ''),
    // A body the operation accepts (a wrong current password: nothing changes if it ever ran).
    body: BODIES[op.operationId],
  }));

test('the contract secures the fourteen user operations (the list below is what is attacked)', () => {
  expect(SECURED.map((op) => op.operationId).sort()).toEqual(
    [
      'changePassword',
      'createApiKey',
      'createPublishableKey',
      'fetchMyData',
      'fetchMyRequests',
      'fetchMyUsage',
      'fetchSchoolSearch',
      'getSchool',
      'listMyTokens',
      'revokeCurrentToken',
      'revokeMyToken',
      'rotateApiKey',
      'rotateToken',
      'updateApiKey',
    ].sort(),
  );
});

async function call(op: (typeof SECURED)[number], headers: Record<string, string>, extraQuery = '') {
  const separator = op.url.includes('?') ? '&' : '?';
  const url = `${app.baseUrl}${op.url}${extraQuery ? separator + extraQuery : ''}`;
  const body =
    op.body === undefined ? {} : { body: op.body, headers: { ...headers, 'Content-Type': 'application/json' } };
  return answer(await fetch(url, { method: op.method, headers, ...body }));
}

async function expectRefusedEverywhere(
  headers: Record<string, string>,
  extraQuery = '',
  presented = true,
): Promise<void> {
  for (const op of SECURED) {
    const r = await call(op, headers, extraQuery);
    expectProblem(r, 401, 'unauthorized');
    const challenge = r.response.headers.get('www-authenticate');
    expect(challenge, op.operationId).toMatch(/^Bearer realm="school-search"/);
    if (presented) expect(challenge, op.operationId).toContain('error="invalid_token"');
  }
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('API2: dead tokens are refused by every secured operation', () => {
  test('when the token has expired (clock moved past expires_in), then 401 everywhere, and it is no longer listed', async () => {
    const user = await app.userClient();
    const fresh = await app.services.auth.login(user.email, user.password);
    expect((await sdk.fetchMyData({ client: user.client })).response!.status).toBe(200);
    app.clock.advance(3601);
    // Issued after the clock moved: still alive, so the refusals below are about expiry.
    const later = await app.services.auth.login(user.email, user.password);
    await expectRefusedEverywhere(bearer(user.token));
    await expectRefusedEverywhere(bearer(fresh.value));
    const listed = (await sdk.listMyTokens({ client: app.client(bearer(later.value)) })).data!.tokens.map(
      (t) => t.token_id,
    );
    expect(listed).toEqual([later.tokenId]);
  });

  test('when the token was revoked by logging out, then 401 everywhere', async () => {
    const user = await app.userClient();
    expect((await sdk.revokeCurrentToken({ client: user.client })).response!.status).toBe(204);
    await expectRefusedEverywhere(bearer(user.token));
  });

  test('when the token was revoked by id from another session, then 401 everywhere', async () => {
    const user = await app.userClient();
    const other = await app.services.auth.login(user.email, user.password);
    const victimId = (await sdk.listMyTokens({ client: user.client })).data!.tokens.find((t) => t.current)!.token_id;
    expect(
      (await sdk.revokeMyToken({ client: app.client(bearer(other.value)), path: { tokenId: victimId } })).response!
        .status,
    ).toBe(204);
    await expectRefusedEverywhere(bearer(user.token));
  });

  test('when the token was rotated away, then 401 everywhere, and replaying it issues nothing', async () => {
    const user = await app.userClient();
    const next = (await sdk.rotateToken({ client: user.client })).data!.token;
    await expectRefusedEverywhere(bearer(user.token));
    const me = await sdk.fetchMyData({ client: app.client(bearer(next)) });
    expect(me.data!.active_tokens).toBe(1);
  });
});

describe('API2: dead API keys are refused by every secured operation', () => {
  const newKey = async (client: Awaited<ReturnType<TestApp['userClient']>>['client'], days = 30) =>
    (
      await sdk.createApiKey({
        client,
        body: { name: 'doomed', expires_in_days: days, current_password: 'correct-horse-battery' },
      })
    ).data!;

  test('when the key was revoked in the token list, then 401 everywhere', async () => {
    const user = await app.userClient();
    const key = await newKey(user.client);
    expect((await sdk.fetchMyData({ client: app.client(bearer(key.token)) })).response!.status).toBe(200);
    expect((await sdk.revokeMyToken({ client: user.client, path: { tokenId: key.token_id } })).response!.status).toBe(
      204,
    );
    await expectRefusedEverywhere(bearer(key.token));
  });

  test('when the key was rotated, then its old value is 401 everywhere and the new one works', async () => {
    const user = await app.userClient();
    const key = await newKey(user.client);
    const next = (
      await sdk.rotateApiKey({
        client: user.client,
        path: { tokenId: key.token_id },
        body: { current_password: user.password },
      })
    ).data!;
    await expectRefusedEverywhere(bearer(key.token));
    expect((await sdk.fetchMyData({ client: app.client(bearer(next.token)) })).response!.status).toBe(200);
  });

  test('when the key logged itself out, then 401 everywhere', async () => {
    const user = await app.userClient();
    const key = await newKey(user.client);
    expect((await sdk.revokeCurrentToken({ client: app.client(bearer(key.token)) })).response!.status).toBe(204);
    await expectRefusedEverywhere(bearer(key.token));
  });

  test('when the key has expired (its days went by), then 401 everywhere', async () => {
    const user = await app.userClient();
    const key = await newKey(user.client, 1);
    app.clock.advance(86_400 - 1);
    expect((await sdk.fetchMyData({ client: app.client(bearer(key.token)) })).response!.status).toBe(200);
    app.clock.advance(1);
    await expectRefusedEverywhere(bearer(key.token));
  });
});

describe('API2: forged, malformed and misplaced credentials', () => {
  let user: Awaited<ReturnType<TestApp['userClient']>>;
  beforeAll(async () => {
    user = await app.userClient();
  });

  test('when the header is malformed, truncated, altered or of another scheme, then 401 everywhere', async () => {
    const t = user.token;
    const flipped = t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A');
    const cases: Record<string, string> = {
      'not a token': 'Bearer not-a-token',
      'truncated by one character': `Bearer ${t.slice(0, -1)}`,
      'truncated to the hint': `Bearer ${t.slice(0, 8)}`,
      'one character changed': `Bearer ${flipped}`,
      'one character added': `Bearer ${t}A`,
      'prefix in upper case': `Bearer SSK_${t.slice(4)}`,
      'without its prefix': `Bearer ${t.slice(4)}`,
      'its stored digest': `Bearer ${tokenDigest(t)}`,
      quoted: `Bearer "${t}"`,
      'followed by another word': `Bearer ${t} extra`,
      'two tokens': `Bearer ${t}, ${t}`,
      'Basic with the token': `Basic ${Buffer.from(`${t}:`).toString('base64')}`,
      'Basic with the e-mail and password': `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}`,
      'scheme Token': `Token ${t}`,
      'scheme ApiKey': `ApiKey ${t}`,
      'no scheme': t,
      'empty Bearer': 'Bearer ',
      'a percent-encoded NUL inside': `Bearer ${t.slice(0, 10)}%00${t.slice(10)}`,
    };
    for (const [name, header] of Object.entries(cases)) {
      for (const op of SECURED) {
        const r = await call(op, { Authorization: header });
        expect(r.response.status, `${name} on ${op.operationId}`).toBe(401);
        expectProblem(r, 401, 'unauthorized');
      }
    }
    // The real token still works: the refusals above were about the header, not the token.
    expect((await sdk.fetchMyData({ client: user.client })).response!.status).toBe(200);
  });

  test('when there is no credential at all, then 401 with a bare challenge (RFC 6750: no error code)', async () => {
    await expectRefusedEverywhere({}, '', false);
    for (const op of SECURED)
      expect((await call(op, {})).response.headers.get('www-authenticate')).toBe('Bearer realm="school-search"');
  });

  test('when a request without a credential is also invalid, then 401, not the 400 that would describe the operation', async () => {
    // Raw requests: the generated client would refuse to send these parameters.
    const search = (headers: Record<string, string>) =>
      fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=&limit=1000&stateCode=nowhere`, { headers }).then(answer);
    expectProblem(await search({}), 401, 'unauthorized');
    const revoked = await app.userClient();
    await sdk.revokeCurrentToken({ client: revoked.client });
    expectProblem(await search(bearer(revoked.token)), 401, 'unauthorized');
    // With a live token the same request is the validator's 400.
    expectProblem(await search(bearer(user.token)), 400, 'validation-error');
  });

  test('when the live token is sent anywhere but Authorization (cookie, X-Api-Key, X-Auth-Token), then 401', async () => {
    const placements: Array<Record<string, string>> = [
      { Cookie: `token=${user.token}; access_token=${user.token}` },
      { 'X-Api-Key': user.token },
      { 'X-Auth-Token': user.token },
    ];
    for (const headers of placements) {
      await expectRefusedEverywhere(headers, '', false);
    }
  });

  test('when the live token is sent in a JSON body, then 401 (rotate and logout read the header only)', async () => {
    for (const path of ['/v1/auth/rotate', '/v1/auth']) {
      const method = path === '/v1/auth' ? 'DELETE' : 'POST';
      const r = await answer(
        await fetch(`${app.baseUrl}${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: user.token }),
        }),
      );
      expectProblem(r, 401, 'unauthorized');
    }
    expect((await sdk.fetchMyData({ client: user.client })).response!.status).toBe(200);
  });

  test.each(['access_token', 'token', 'api_key', 'apiKey', 'tokenID'])(
    'when the live token is sent as the query parameter %s, then it authenticates nobody (401 alone, 400 beside a header) — except tokenID on search',
    async (name) => {
      for (const op of SECURED) {
        if (name === 'tokenID' && op.operationId === 'fetchSchoolSearch') continue; // the deprecated scheme, below
        // Alone: nothing authenticates the request.
        const alone = await call(op, {}, `${name}=${user.token}`);
        expect(alone.response.status, `${name} alone on ${op.operationId}`).toBe(401);
        expectProblem(alone, 401, 'unauthorized');
        // Beside a valid header: the parameter is not part of the contract.
        const beside = await call(op, bearer(user.token), `${name}=${user.token}`);
        expect(beside.response.status, `${name} with header on ${op.operationId}`).toBe(400);
        const problem = expectProblem(beside, 400, 'validation-error');
        expect(problem.errors).toContainEqual(expect.objectContaining({ location: 'query', name }));
        // And the token is not echoed back.
        expect(beside.text).not.toContain(user.token);
      }
      expect((await sdk.fetchMyData({ client: user.client })).response!.status).toBe(200);
    },
  );

  test('when the deprecated tokenID carries a live token on search, then it works; a dead one is 401', async () => {
    const other = await app.userClient();
    const ok = await sdk.fetchSchoolSearch({ client: app.client(), query: { query: 'harvard', tokenID: other.token } });
    expect(ok.response!.status).toBe(200);
    expect(JSON.stringify(ok.data)).not.toContain(other.token);
    await sdk.revokeCurrentToken({ client: other.client });
    expectProblem(
      await sdk.fetchSchoolSearch({ client: app.client(), query: { query: 'harvard', tokenID: other.token } }),
      401,
      'unauthorized',
    );
  });
});

describe('API2: login does not reveal whether an e-mail has an account', () => {
  function comparable(r: Awaited<ReturnType<typeof answer>>) {
    const { request_id: _id, ...body } = r.error as Record<string, unknown>;
    const headers: Record<string, string> = {};
    r.response.headers.forEach((value, name) => {
      if (!['x-request-id', 'date', 'ratelimit', 'ratelimit-policy'].includes(name)) headers[name] = value;
    });
    return { status: r.response.status, body, headers };
  }

  async function login(email: string, password: string) {
    return answer(
      await fetch(`${app.baseUrl}/v1/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      }),
    );
  }

  test('when the e-mail is unknown or the password wrong, then status, body (but the request id) and headers are identical', async () => {
    await app.services.auth.createUser('exists@example.com', 'right-password-1');
    const wrong = await login('exists@example.com', 'wrong-password-1');
    const wrongCase = await login('EXISTS@example.com', 'wrong-password-1');
    const unknown = await login('missing@example.com', 'wrong-password-1');
    expectProblem(wrong, 401, 'invalid-credentials');
    expect(comparable(unknown)).toEqual(comparable(wrong));
    expect(comparable(wrongCase)).toEqual(comparable(wrong));
  });

  test('when timed with the production argon2 settings, then an unknown e-mail takes as long as a wrong password', async () => {
    const real = await startTestApp({ hasher: new Argon2Hasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 }) });
    try {
      await real.services.auth.createUser('timed@example.com', 'right-password-1');
      const attempt = async (email: string) => {
        const started = performance.now();
        const r = await fetch(`${real.baseUrl}/v1/auth`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'wrong-password-1' }),
        });
        await r.arrayBuffer();
        expect(r.status).toBe(401);
        return performance.now() - started;
      };
      // Warm up both paths (the decoy hash is made on first use; the JIT, the store's caches).
      for (let i = 0; i < 3; i++) {
        await attempt('timed@example.com');
        await attempt(`warm${i}@example.com`);
      }
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 30; i++) {
        // Interleaved, in alternating order, so that load from other test files hits both alike.
        if (i % 2 === 0) {
          known.push(await attempt('timed@example.com'));
          unknown.push(await attempt(`nobody${i}@example.com`));
        } else {
          unknown.push(await attempt(`nobody${i}@example.com`));
          known.push(await attempt('timed@example.com'));
        }
      }
      const [k, u] = [median(known), median(unknown)];
      // The real hasher is in use: a verification takes milliseconds, not microseconds.
      expect(k).toBeGreaterThan(8);
      // Without the decoy an unknown e-mail answers in ~1 ms against ~30 ms here.
      expect(
        Math.abs(k - u),
        `median wrong password ${k.toFixed(1)} ms, unknown e-mail ${u.toFixed(1)} ms`,
      ).toBeLessThan(Math.max(0.25 * Math.max(k, u), 5));
    } finally {
      await real.close();
    }
  }, 30_000);
});

describe('API2: tokens are unguessable and shown once', () => {
  test('when tokens are issued, then each is 256 random bits in base64url behind ssk_, unrelated to the user', async () => {
    await app.services.auth.createUser('entropy@example.com', 'right-password-1');
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await sdk.createToken({
        client: app.client(),
        body: { email: 'entropy@example.com', password: 'right-password-1' },
      });
      expect(r.data!.token).toMatch(/^ssk_[A-Za-z0-9_-]{43}$/);
      expect(r.data!.token).not.toContain(r.data!.userId.replace(/-/g, '').slice(0, 8));
      tokens.add(r.data!.token);
    }
    expect(tokens.size).toBe(20);
    // Distinct characters across the bodies: random, not a counter.
    expect(new Set([...tokens].map((t) => t.slice(4, 12))).size).toBe(20);
  });
});
