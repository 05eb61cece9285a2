// The sign-up, recovery and invitation pages in Chromium (playwright-core), against the real app
// and a real SMTP server in the process: each flow reads the delivered e-mail, opens its link in
// the browser and finishes there. axe-core on every page (0 serious or critical), and every page
// again at 375 px wide, where no button, link or field may lie outside the screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiKey, fetchMyData } from '../../generated/sdk.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { linkIn, startSmtp, type TestSmtp } from '../support/smtp.ts';
import { browserMissing, launch, screenshot, seriousViolations } from '../../scripts/clients/browser.ts';

const missing = browserMissing();
if (missing) console.warn(`sign-up browser tests — skipped: ${missing}`);

const PASSWORD = 'browser-password-1';

describe.skipIf(missing !== undefined)('sign-up, recovery and invitation pages in Chromium', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await startTestApp({ signUp: 'open', smtpUrl: smtp.url });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.close();
    expect(pageErrors).toEqual([]);
  });

  async function newPage(width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  }

  /** axe clean, and at 375 px nothing to act on lies beyond the screen's edges (no sideways scrolling). */
  async function check(page: Page, name: string): Promise<void> {
    await screenshot(page, name);
    expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 375, height: 800 });
    const outside = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const sideways = document.documentElement.scrollWidth > width;
      // The skip link sits off-screen on purpose until it has the focus.
      const actions = [...document.querySelectorAll('button, a:not(.skip), input')].filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.left < 0 || box.right > width);
      });
      return { sideways, actions: actions.map((el) => el.outerHTML.slice(0, 80)) };
    });
    expect(outside, `375 px: ${name}`).toEqual({ sideways: false, actions: [] });
    await screenshot(page, `${name}-375px`);
    await page.setViewportSize(viewport);
  }

  test('sign up → e-mail → choose the password → signed in; then sign out and sign in with it', async () => {
    const page = await newPage();
    const email = `browser-signup-${process.pid}@example.org`;
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await check(page, 'signup');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await check(page, 'signup-sent');

    const { url } = linkIn(await smtp.next(email), 'confirm');
    const linkPage = await newPage();
    await linkPage.goto(url);
    await linkPage.getByRole('heading', { name: 'Confirm your account' }).waitFor();
    // The token left the address bar (and the history) at once.
    expect(linkPage.url()).toBe(`${app.baseUrl}/dashboard#confirm`);
    await check(linkPage, 'confirm');
    await linkPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await linkPage.getByLabel('Password again').fill(`${PASSWORD}x`);
    await linkPage.getByRole('button', { name: 'Create account and sign in' }).click();
    await expect.poll(() => linkPage.getByRole('alert').textContent()).toBe('The two passwords differ.');
    await linkPage.getByLabel('Password again').fill(PASSWORD);
    await linkPage.getByRole('button', { name: 'Create account and sign in' }).click();
    await linkPage.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    expect(await linkPage.locator('#who-email').textContent()).toBe(email);

    await linkPage.getByRole('button', { name: 'Sign out' }).click();
    await linkPage.getByRole('heading', { name: 'Sign in' }).waitFor();
    await linkPage.getByLabel('E-mail').fill(email);
    await linkPage.getByLabel('Password').fill(PASSWORD);
    await linkPage.getByRole('button', { name: 'Sign in' }).click();
    await linkPage.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    expect(await linkPage.locator('[data-fact="E-mail"]').textContent()).toBe(email);
  });

  test('forgot → e-mail → reset, asking for the keys to go too → the old session and key get 401; the new password signs in', async () => {
    const email = `browser-reset-${process.pid}@example.org`;
    const user = await app.userClient(email, PASSWORD);
    const key = (await createApiKey({ client: user.client, body: { name: 'script', current_password: PASSWORD } }))
      .data!.token;
    // Another device, signed in on the dashboard before the reset.
    const other = await newPage();
    await other.goto(`${app.baseUrl}/dashboard`);
    await other.getByLabel('E-mail').fill(email);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    const page = await newPage();
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await check(page, 'forgot');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

    const { url } = linkIn(await smtp.next(email, { subject: /new password/ }), 'reset');
    await page.goto(url);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await check(page, 'reset');
    await page.getByLabel('Password', { exact: true }).fill('browser-password-2');
    await page.getByLabel('Password again').fill('browser-password-2');
    await page.getByLabel('Also revoke every API key').check();
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').textContent()).toContain('Your new password is set.');
    expect(await page.getByRole('status').textContent()).toContain('Every session and API key');

    for (const old of [user.token, key]) {
      const answer = await fetchMyData({ client: app.client({ Authorization: `Bearer ${old}` }) });
      expect(answer.response!.status).toBe(401);
    }
    // The other device's next request is a 401: its dashboard is signed out and says why.
    await other.getByRole('link', { name: 'History' }).click();
    await other.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await other.getByRole('status').textContent()).toContain('Your session has ended');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('browser-password-2');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();

    // The same link a second time: refused, said plainly.
    await page.goto(url);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('browser-password-3');
    await page.getByLabel('Password again').fill('browser-password-3');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^This link cannot be used/);
  });

  test('invitation → e-mail → choose a password → signed in', async () => {
    const email = `browser-invited-${process.pid}@example.org`;
    await app.services.signUp.invite(email);
    const { url } = linkIn(await smtp.next(email), 'invitation');
    const page = await newPage(375);
    await page.goto(url);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await check(page, 'invitation');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    expect(await page.locator('#who-email').textContent()).toBe(email);
  });
});
