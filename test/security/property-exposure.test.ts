// OWASP API3:2023 Broken Object Property Level Authorization: mass assignment (a client cannot
// set properties the contract does not let it set) and excessive data exposure (no response of
// any operation carries a property the contract does not declare, nor a password hash, token
// digest, token value, store row id, file path or stack). Run against the test app (response
// validation on) and against an app as production runs it (validation off), so that it is the
// handlers, not the validator, that keep internals out.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, fetchMyData, rotateToken } from '../../generated/sdk.gen.ts';
import { draftSchool } from '../../src/domain/catalog/school-draft.ts';
import { tokenDigest } from '../../src/domain/accounts/token.ts';
import type { MailMessage } from '../../src/domain/mail/mail.ports.ts';
import type { Services } from '../../src/composition/services.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';
import { allowedKeyPaths, answer, contractOperations, contractValue, keyPaths } from '../support/raw-http.ts';

const OPERATIONS = contractOperations();
const PROBLEM_KEYS = allowedKeyPaths(contractValue('components/schemas/Problem'));
const PASSWORD = 'exposure-password-1';

describe('API3: mass assignment', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ tokenTtlSeconds: 600 });
    await app.services.auth.createUser('mass@example.com', PASSWORD);
  });
  afterAll(() => app.close());

  const login = (body: Record<string, unknown>) =>
    createToken({ client: app.client(), body: body as never, ...unchecked });

  test.each([
    'userId',
    'role',
    'is_admin',
    'isAdmin',
    'admin',
    'token',
    'token_id',
    'expires_in',
    'expires_at',
    'token_type',
    'created_at',
    'scope',
    'password_hash',
  ])(
    'when POST /v1/auth carries the extra field %s, then 400 validation-error listing it, and no token',
    async (field) => {
      const r = await login({
        email: 'mass@example.com',
        password: PASSWORD,
        [field]: field === 'expires_in' ? 999_999_999 : 'x',
      });
      const problem = expectProblem(r, 400, 'validation-error');
      expect(problem.errors).toContainEqual(expect.objectContaining({ location: 'body', name: `/${field}` }));
      expect(JSON.stringify(r.error)).not.toContain('ssk_');
    },
  );

  test('when several extra fields come at once, then every one is listed', async () => {
    const extra = { userId: '00000000-0000-4000-8000-000000000000', role: 'admin', is_admin: true };
    const problem = expectProblem(
      await login({ email: 'mass@example.com', password: PASSWORD, ...extra }),
      400,
      'validation-error',
    );
    expect(problem.errors!.map((e) => e.name).sort()).toEqual(['/is_admin', '/role', '/userId']);
  });

  test('when the body is otherwise right, then the token lifetime is the server one, not a client choice', async () => {
    const r = await login({ email: 'mass@example.com', password: PASSWORD });
    expect(r.response!.status).toBe(200);
    expect(r.data!.expires_in).toBe(600);
  });

  test('when rotate (which takes no body) is sent a body with a lifetime, a user and a token, then none of it is used', async () => {
    const user = await app.userClient();
    const other = await app.userClient();
    const raw = await fetch(`${app.baseUrl}/v1/auth/rotate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ expires_in: 999_999_999, userId: other.userId, token: other.token, token_type: 'Admin' }),
    });
    const r = await answer(raw);
    expect(raw.status).toBe(200);
    expect(r.error).toMatchObject({ userId: user.userId, expires_in: 600, token_type: 'Bearer' });
    expect((r.error as { token: string }).token).not.toBe(other.token);
    // The other user's token is untouched.
    expect((await fetchMyData({ client: other.client })).data!.userId).toBe(other.userId);
  });

  test('when a JSON body carries __proto__ or constructor.prototype, then 400 and nothing is polluted', async () => {
    const payloads = [
      `{"email":"mass@example.com","password":"${PASSWORD}","__proto__":{"isAdmin":true,"polluted":"yes"}}`,
      `{"email":"mass@example.com","password":"${PASSWORD}","constructor":{"prototype":{"polluted":"yes"}}}`,
    ];
    for (const body of payloads) {
      const r = await answer(
        await fetch(`${app.baseUrl}/v1/auth`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }),
      );
      expectProblem(r, 400, 'validation-error');
    }
    // The app runs in this process: a polluted prototype would show here.
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------

interface Seen {
  label: string;
  operationId: string | undefined;
  status: number;
  contentType: string;
  text: string;
  headers: string;
}

interface Target {
  baseUrl: string;
  services: Services;
  dbPath: string;
  close(): Promise<void>;
}

/** Every e-mail the apps send (sign-up, invitation, reset), newest last: the tests take links from it. */
const mailbox: MailMessage[] = [];
const mailer = { send: async (message: MailMessage) => void mailbox.push(message) };
function linkTo(email: string, kind: string): string {
  const text = mailbox.filter((m) => m.to === email).at(-1)?.text ?? '';
  return new RegExp(`#${kind}/(ssl_[\\w-]{43})`).exec(text)?.[1] ?? 'no link';
}

const targets: Array<[string, () => Promise<Target>]> = [
  ['the test app (response validation on)', () => startTestApp({ signUp: 'open', mailer })],
  // Response validation off, as in production: the handlers, not the validator, keep internals out.
  [
    'an app as in production (response validation off)',
    () => startTestApp({ validateResponses: false, signUp: 'open', mailer }),
  ],
];

describe.each(targets)('API3: excessive data exposure, on %s', (_name, start) => {
  let target: Target;
  const seen: Seen[] = [];
  /** Token values issued to the users; each may appear only as `token` in the answer that issued it. */
  const tokens: string[] = [];
  let hash = '';
  let userId = '';
  let schoolId = '';

  async function send(
    label: string,
    operationId: string | undefined,
    path: string,
    init: RequestInit & { token?: string } = {},
  ): Promise<Seen & { json: unknown }> {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
    if (typeof init.body === 'string') headers.set('content-type', 'application/json');
    const response = await fetch(`${target.baseUrl}${path}`, { ...init, headers });
    const text = await response.text();
    const headerText: string[] = [];
    response.headers.forEach((value, name) => {
      headerText.push(`${name}: ${value}`);
    });
    const entry = {
      label,
      operationId,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      text,
      headers: headerText.join('\n'),
    };
    seen.push(entry);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { ...entry, json };
  }

  beforeAll(async () => {
    target = await start();
    const drafts = [draftSchool({ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' })];
    const school = drafts[0]!.ok ? drafts[0]!.draft : undefined;
    await target.services.store.schools.upsertMany([school!]);
    schoolId = school!.id;
    userId = (await target.services.auth.createUser('exposed@example.com', PASSWORD)).userId;
    await target.services.auth.createUser('bystander@example.com', 'bystander-password-1');
    tokens.push((await target.services.auth.login('bystander@example.com', 'bystander-password-1')).value);
    hash = (await target.services.store.users.findById(userId))!.passwordHash;

    const credentials = JSON.stringify({ email: 'exposed@example.com', password: PASSWORD });
    const login = await send('login', 'createToken', '/v1/auth', { method: 'POST', body: credentials });
    const first = (login.json as { token: string }).token;
    tokens.push(first);
    const second = await send('login again', 'createToken', '/v1/auth', { method: 'POST', body: credentials }).then(
      (r) => r.json as { token: string; token_id: string },
    );
    tokens.push(second.token);

    await send('search', 'fetchSchoolSearch', '/v1/fetchSchoolSearch?query=harvard&stateCode=MA&limit=5', {
      token: first,
    });
    await send('search by tokenID', 'fetchSchoolSearch', `/v1/fetchSchoolSearch?query=harv&tokenID=${first}`);
    await send('empty search', 'fetchSchoolSearch', '/v1/fetchSchoolSearch?query=***', { token: first });
    await send('my data', 'fetchMyData', '/v1/fetchMyData', { token: first });
    await send('my requests', 'fetchMyRequests', '/v1/fetchMyRequests?limit=25', { token: first });
    await send('my usage', 'fetchMyUsage', '/v1/fetchMyUsage?days=7', { token: first });
    await send('wrong current password', 'changePassword', '/v1/account/password', {
      method: 'POST',
      token: first,
      body: JSON.stringify({ current_password: 'not-it', new_password: 'another-password-1' }),
    });
    const key = (
      await send('create key', 'createApiKey', '/v1/keys', {
        method: 'POST',
        token: first,
        body: JSON.stringify({ name: 'exposure key', expires_in_days: 7, current_password: PASSWORD }),
      })
    ).json as { token: string; token_id: string };
    tokens.push(key.token);
    const rotatedKey = (
      await send('rotate key', 'rotateApiKey', `/v1/keys/${key.token_id}/rotate`, {
        method: 'POST',
        token: first,
        body: JSON.stringify({ current_password: PASSWORD }),
      })
    ).json as { token: string };
    tokens.push(rotatedKey.token);
    await send('search with a key', 'fetchSchoolSearch', '/v1/fetchSchoolSearch?query=harvard', {
      token: rotatedKey.token,
    });
    const page = (
      await send('create publishable key', 'createPublishableKey', '/v1/publishable-keys', {
        method: 'POST',
        token: first,
        body: JSON.stringify({
          name: 'exposure page',
          origins: ['https://www.example.org'],
          current_password: PASSWORD,
        }),
      })
    ).json as { token: string; token_id: string };
    tokens.push(page.token);
    await send('re-scope publishable key', 'updateApiKey', `/v1/keys/${page.token_id}`, {
      method: 'PATCH',
      token: first,
      body: JSON.stringify({ origins: ['https://www.example.org', 'https://*.example.net'] }),
    });
    await send('search from a page', 'fetchSchoolSearch', `/v1/fetchSchoolSearch?query=harvard&key=${page.token}`, {
      headers: { Origin: 'https://a.example.net' },
    });
    await send('publishable key on the account', 'fetchMyData', '/v1/fetchMyData', {
      token: page.token,
      headers: { Origin: 'https://www.example.org' },
    });
    await send('school record', 'getSchool', `/v1/schools/${schoolId}`, { token: first });
    await send('my tokens', 'listMyTokens', '/v1/tokens', { token: first });
    await send('image', 'getSchoolImage', `/images/schools/${schoolId}.svg`);
    await send('live', 'getLiveness', '/health/live');
    await send('ready', 'getReadiness', '/health/ready');
    const rotated = await send('rotate', 'rotateToken', '/v1/auth/rotate', { method: 'POST', token: second.token });
    tokens.push((rotated.json as { token: string }).token);
    await send('revoke by id', 'revokeMyToken', `/v1/tokens/${(rotated.json as { token_id: string }).token_id}`, {
      method: 'DELETE',
      token: first,
    });
    await send('change password', 'changePassword', '/v1/account/password', {
      method: 'POST',
      token: first,
      body: JSON.stringify({ current_password: PASSWORD, new_password: PASSWORD }),
    });
    await send('log out', 'revokeCurrentToken', '/v1/auth', { method: 'DELETE', token: first });

    // Accounts made and recovered without a token: each link's token is a secret too.
    const newcomer = { email: 'newcomer@example.com', password: 'newcomer-password-1' };
    await send('sign-up options', 'getSignUpOptions', '/v1/signup');
    await send('sign up', 'signUp', '/v1/signup', { method: 'POST', body: JSON.stringify(newcomer) });
    const confirmLink = linkTo(newcomer.email, 'confirm');
    tokens.push(confirmLink);
    const confirmed = await send('confirm sign-up', 'confirmSignUp', '/v1/signup/confirm', {
      method: 'POST',
      body: JSON.stringify({ token: confirmLink, password: newcomer.password }),
    });
    tokens.push((confirmed.json as { token: string }).token);
    await send('sign up, known address', 'signUp', '/v1/signup', { method: 'POST', body: JSON.stringify(newcomer) });
    await send('used link', 'confirmSignUp', '/v1/signup/confirm', {
      method: 'POST',
      body: JSON.stringify({ token: confirmLink, password: newcomer.password }),
    });
    await send('forgot', 'requestPasswordReset', '/v1/password/forgot', {
      method: 'POST',
      body: JSON.stringify({ email: newcomer.email }),
    });
    await send('forgot, unknown address', 'requestPasswordReset', '/v1/password/forgot', {
      method: 'POST',
      body: JSON.stringify({ email: 'nobody@example.com' }),
    });
    const resetLink = linkTo(newcomer.email, 'reset');
    tokens.push(resetLink);
    await send('reset', 'resetPassword', '/v1/password/reset', {
      method: 'POST',
      body: JSON.stringify({ token: resetLink, new_password: 'newcomer-password-2' }),
    });
    await target.services.signUp.invite('invited@example.com');
    const invitation = linkTo('invited@example.com', 'invitation');
    tokens.push(invitation);
    const accepted = await send('accept invitation', 'acceptInvitation', '/v1/invitations/accept', {
      method: 'POST',
      body: JSON.stringify({ token: invitation, password: 'invited-password-1' }),
    });
    tokens.push((accepted.json as { token: string }).token);

    // Error answers of every kind.
    await send('wrong password', 'createToken', '/v1/auth', {
      method: 'POST',
      body: JSON.stringify({ email: 'exposed@example.com', password: 'not-the-password' }),
    });
    await send('bad body', 'createToken', '/v1/auth', {
      method: 'POST',
      body: JSON.stringify({ email: 'not-an-email', password: PASSWORD, userId }),
    });
    await send('wrong type', 'createToken', '/v1/auth', {
      method: 'POST',
      body: JSON.stringify({ email: 'exposed@example.com', password: [PASSWORD] }),
    });
    await send('broken json', 'createToken', '/v1/auth', {
      method: 'POST',
      body: `{"email":"exposed@example.com","password":"${PASSWORD}"`,
    });
    await send('not json', 'createToken', '/v1/auth', {
      method: 'POST',
      body: PASSWORD,
      headers: { 'content-type': 'text/plain' },
    });
    await send('too large', 'createToken', '/v1/auth', {
      method: 'POST',
      body: JSON.stringify({ email: 'exposed@example.com', password: PASSWORD.repeat(2000) }),
    });
    await send('dead token', 'fetchMyData', '/v1/fetchMyData', { token: first });
    await send('bad usage days', 'fetchMyUsage', '/v1/fetchMyUsage?days=0', { token: tokens[0]! });
    await send('bad search', 'fetchSchoolSearch', '/v1/fetchSchoolSearch?query=&limit=99', { token: tokens[0]! });
    await send('bad key body', 'createApiKey', '/v1/keys', {
      method: 'POST',
      token: tokens[0]!,
      body: JSON.stringify({ name: '', expires_in_days: 999, userId }),
    });
    await send('unknown key', 'rotateApiKey', '/v1/keys/00000000-0000-4000-8000-000000000000/rotate', {
      method: 'POST',
      token: tokens[0]!,
      body: JSON.stringify({ current_password: PASSWORD }),
    });
    await send('unknown token id', 'revokeMyToken', '/v1/tokens/00000000-0000-4000-8000-000000000000', {
      method: 'DELETE',
      token: tokens[0]!,
    });
    await send('bad token id', 'revokeMyToken', '/v1/tokens/not-a-uuid', { method: 'DELETE', token: tokens[0]! });
    await send('unknown image', 'getSchoolImage', '/images/schools/00000000-0000-4000-8000-000000000000.svg');
    await send('unknown school', 'getSchool', '/v1/schools/00000000-0000-4000-8000-000000000000', {
      token: tokens[0]!,
    });
    await send('unknown route', undefined, '/v1/users');
    await send('unknown method', undefined, '/v1/fetchMyData', { method: 'PUT', token: tokens[0]! });
    // The store failing: 500 and 503 must not say why.
    const engine = target.services.engine;
    const original = engine.search.bind(engine);
    engine.search = async () => {
      throw new Error(`SQLITE_ERROR: no such column: password_hash in ${target.dbPath} for ${hash}`);
    };
    try {
      await send('store failure', 'fetchSchoolSearch', '/v1/fetchSchoolSearch?query=harvard', { token: tokens[0]! });
    } finally {
      engine.search = original;
    }
  });
  afterAll(() => target.close());

  test('every operation of the contract was answered with success at least once', () => {
    const succeeded = new Set(seen.filter((s) => s.status < 300).map((s) => s.operationId));
    expect([...succeeded].sort()).toEqual(OPERATIONS.map((o) => o.operationId).sort());
  });

  test('when any JSON answer is walked, then every key is one the contract declares for that operation and status', () => {
    let walked = 0;
    for (const s of seen) {
      if (!/json/.test(s.contentType)) continue;
      const op = OPERATIONS.find((o) => o.operationId === s.operationId);
      const schema = s.contentType.startsWith('application/problem+json') ? undefined : op?.responses.get(s.status);
      const allowed = schema ? allowedKeyPaths(schema) : PROBLEM_KEYS;
      if (!schema) expect(s.contentType, s.label).toMatch(/^application\/problem\+json/);
      for (const key of keyPaths(JSON.parse(s.text))) {
        expect(allowed.has(key), `${s.label} (${s.status}): undeclared key "${key}"`).toBe(true);
        walked++;
      }
    }
    expect(walked).toBeGreaterThan(100);
  });

  test('when any answer (body or headers) is searched, then no hash, digest, path, SQL or stack is in it', () => {
    const forbidden = [
      '$argon2',
      hash,
      PASSWORD,
      'bystander-password-1',
      target.dbPath,
      'school-search-test-',
      'school-search-security-',
      'password_hash',
      'passwordHash',
      'rowid',
      'revoked_at',
      'user_id',
      'SQLITE',
      'no such column',
      'node_modules',
      ...tokens.map((t) => tokenDigest(t)),
      ...tokens.map((t) => createHash('sha256').update(t).digest('base64url')),
    ];
    for (const s of seen) {
      const everything = `${s.text}\n${s.headers}`;
      for (const secret of forbidden)
        expect(everything.includes(secret), `${s.label} (${s.status}) contains ${secret}`).toBe(false);
      expect(everything, s.label).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+:\d+/);
    }
  });

  test('when any answer is searched for token values, then a token appears only as `token` in the answer that issued it', () => {
    for (const s of seen) {
      const issuing = [
        'createToken',
        'rotateToken',
        'createApiKey',
        'rotateApiKey',
        'createPublishableKey',
        'confirmSignUp',
        'acceptInvitation',
      ].includes(s.operationId ?? '');
      const issued = s.status < 300 && issuing ? (JSON.parse(s.text) as { token: string }).token : undefined;
      for (const t of tokens) {
        if (t === issued) continue;
        expect(`${s.text}\n${s.headers}`.includes(t.slice(4)), `${s.label} (${s.status}) contains a token`).toBe(false);
      }
    }
  });

  test('when tokens are listed, then only a hint of at most 8 characters (4 random) is shown', () => {
    const listed = seen.find((s) => s.label === 'my tokens')!;
    const hints = (JSON.parse(listed.text) as { tokens: Array<{ hint: string }> }).tokens.map((t) => t.hint);
    expect(hints.length).toBeGreaterThan(0);
    for (const hint of hints) {
      expect(hint.length).toBeLessThanOrEqual(8);
      expect(tokens.some((t) => t.startsWith(hint))).toBe(true);
    }
  });

  test('when the account is read, then it has exactly the declared fields (no hash, no internals)', () => {
    const me = JSON.parse(seen.find((s) => s.label === 'my data')!.text) as Record<string, unknown>;
    expect(Object.keys(me).sort()).toEqual(['active_tokens', 'created_at', 'email', 'usage', 'userId']);
    expect(me['userId']).toBe(userId);
  });
});

test('the generated client sees the same: rotateToken and fetchMyData answers parse without extra keys', async () => {
  const app = await startTestApp();
  try {
    const user = await app.userClient();
    const rotated = await rotateToken({ client: user.client });
    expect(Object.keys(rotated.data!).sort()).toEqual([
      'expires_at',
      'expires_in',
      'session_expires_at',
      'token',
      'token_id',
      'token_type',
      'userId',
    ]);
    const me = await fetchMyData({ client: app.client({ Authorization: `Bearer ${rotated.data!.token}` }) });
    expect(Object.keys(me.data!.usage).sort()).toEqual(['last_request_at', 'request_count', 'total_cost']);
  } finally {
    await app.close();
  }
});
