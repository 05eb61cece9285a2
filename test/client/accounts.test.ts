// SchoolSearchAccounts (the TypeScript client's calls for someone without a token) against the
// real app and an in-process SMTP server: sign up with an e-mail alone and choose the password
// with the link, build a SchoolSearchClient from the token; reset, keeping or revoking the API
// keys; invitation; an error is a SchoolSearchApiError with its problem.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SchoolSearchAccounts, SchoolSearchApiError, SchoolSearchClient } from '../../clients/typescript/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { linkIn, startSmtp, type TestSmtp } from '../support/smtp.ts';

describe('SchoolSearchAccounts', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let accounts: SchoolSearchAccounts;
  /** The JSON bodies `accounts` posted, by path. */
  const bodies: Array<{ path: string; body: unknown }> = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    app = await startTestApp({ signUp: 'open', smtpUrl: smtp.url });
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') {
        bodies.push({ path: new URL(request.url).pathname, body: JSON.parse(await request.clone().text()) });
      }
      return fetch(request);
    };
    accounts = new SchoolSearchAccounts({ baseUrl: app.baseUrl, fetch: recording });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  /** The token of the next link of this kind mailed to `email` (notices of a change come in between). */
  async function nextLink(email: string, kind: 'confirm' | 'reset'): Promise<string> {
    for (;;) {
      const mail = await smtp.next(email);
      if (mail.text.includes(`#${kind}/`)) return linkIn(mail, kind).token;
    }
  }

  test('when someone signs up with an e-mail alone and chooses the password with the link, then the client logs in with it', async () => {
    expect(await accounts.signUpOptions()).toEqual({ signup: 'open', password_reset: true });
    const email = `client-${process.pid}@example.org`;
    expect((await accounts.signUp({ email })).status).toBe('accepted');
    expect(bodies.filter((b) => b.path === '/v1/signup').map((b) => b.body)).toEqual([{ email }]);
    const token = await nextLink(email, 'confirm');

    const issued = await accounts.confirmSignUp({ token, password: 'chosen-with-the-link-1' });

    expect(Date.parse(issued.session_expires_at)).toBeGreaterThanOrEqual(Date.parse(issued.expires_at));
    const session = new SchoolSearchClient({ baseUrl: app.baseUrl, token: issued.token });
    expect((await session.fetchMyData()).email).toBe(email);
    const client = new SchoolSearchClient({ baseUrl: app.baseUrl, email, password: 'chosen-with-the-link-1' });
    expect((await client.fetchMyData()).email).toBe(email);
  });

  test('when a password is reset, then every session ends and API keys keep working; with revokeApiKeys they go too', async () => {
    const email = `client-reset-${process.pid}@example.org`;
    await app.services.auth.createUser(email, 'client-password-1');
    const owner = new SchoolSearchClient({ baseUrl: app.baseUrl, email, password: 'client-password-1' });
    const key = await owner.createApiKey({ name: 'program' });
    const program = new SchoolSearchClient({ baseUrl: app.baseUrl, apiKey: key.token });

    await accounts.requestPasswordReset({ email });
    await accounts.resetPassword({ token: await nextLink(email, 'reset'), newPassword: 'client-password-2' });

    expect(bodies.filter((b) => b.path === '/v1/password/reset').at(-1)!.body).not.toHaveProperty('revoke_api_keys');
    expect((await program.fetchMyData()).email).toBe(email);
    // The owner's session ended, and its password is the old one: its login is refused.
    await expect(owner.fetchMyData()).rejects.toMatchObject({ status: 401, type: '/problems/invalid-credentials' });

    await accounts.requestPasswordReset({ email });
    await accounts.resetPassword({
      token: await nextLink(email, 'reset'),
      newPassword: 'client-password-3',
      revokeApiKeys: true,
    });

    await expect(program.fetchMyData()).rejects.toMatchObject({ status: 401, type: '/problems/unauthorized' });
    const again = new SchoolSearchClient({ baseUrl: app.baseUrl, email, password: 'client-password-3' });
    expect((await again.listTokens()).tokens.map((t) => t.kind)).toEqual(['session']);
  });

  test('when an invitation is accepted, then a token; a used link is a SchoolSearchApiError 410 invalid-link', async () => {
    const email = `client-invited-${process.pid}@example.org`;
    await app.services.signUp.invite(email);
    const { token } = linkIn(await smtp.next(email), 'invitation');
    expect((await accounts.acceptInvitation({ token, password: 'client-password-3' })).token).toMatch(/^ssk_/);
    const refused = await accounts.acceptInvitation({ token, password: 'client-password-3' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SchoolSearchApiError);
    expect(refused).toMatchObject({ status: 410, type: '/problems/invalid-link' });
  });
});
