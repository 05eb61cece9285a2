// SchoolSearchAccounts (the TypeScript client's calls for someone without a token) against the
// real app and an in-process SMTP server: sign up, confirm, build a SchoolSearchClient from the
// token; reset; invitation; an error is a SchoolSearchApiError with its problem.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SchoolSearchAccounts, SchoolSearchApiError, SchoolSearchClient } from '../../src/client/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { linkIn, startSmtp, type TestSmtp } from '../support/smtp.ts';

describe('SchoolSearchAccounts', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let accounts: SchoolSearchAccounts;
  beforeAll(async () => {
    smtp = await startSmtp();
    app = await startTestApp({ signUp: 'open', smtpUrl: smtp.url });
    accounts = new SchoolSearchAccounts({ baseUrl: app.baseUrl });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  test('when someone signs up and confirms, then the token works in a SchoolSearchClient', async () => {
    expect(await accounts.signUpOptions()).toEqual({ signup: 'open', password_reset: true });
    const email = `client-${process.pid}@example.org`;
    expect((await accounts.signUp({ email, password: 'client-password-1' })).status).toBe('accepted');
    const { token } = linkIn(await smtp.next(email), 'confirm');
    const issued = await accounts.confirmSignUp({ token, password: 'client-password-1' });
    const client = new SchoolSearchClient({ baseUrl: app.baseUrl, token: issued.token });
    expect((await client.fetchMyData()).email).toBe(email);

    await accounts.requestPasswordReset({ email });
    const reset = linkIn(await smtp.next(email), 'reset').token;
    await accounts.resetPassword({ token: reset, newPassword: 'client-password-2' });
    await expect(client.fetchMyData()).rejects.toMatchObject({ status: 401 });
    const again = new SchoolSearchClient({ baseUrl: app.baseUrl, email, password: 'client-password-2' });
    expect((await again.fetchMyData()).email).toBe(email);
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
