// The dashboard in a real browser (Debian's Chromium, playwright-core), against the real app:
// sign in (and a wrong password, and throttling), usage chart, history, API keys created, used
// through the API, rotated and revoked, password change, sign out, reload, phone width, CSP and
// an axe-core scan of every page. Screenshots go to reports/dashboard/ (CI keeps them).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyData, fetchMyUsage, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { RATE_LIMITS_OFF } from '../../src/http/middleware/rate-limit.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { browserMissing, launch, screenshot, seriousViolations } from '../../scripts/clients/browser.ts';

const missing = browserMissing();
if (missing) console.warn(`dashboard browser tests — skipped: ${missing}`);

const EMAIL = 'dashboard.user@example.com';
const PASSWORD = 'dashboard-password-1';
const DAY_S = 86_400;

describe.skipIf(missing !== undefined)('the dashboard in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Content-Security-Policy violations and script errors the page reported. */
  const pageErrors: string[] = [];
  const bearer = (token: string) => app.client({ Authorization: `Bearer ${token}` });
  const search = (token: string, query: string) => fetchSchoolSearch({ client: bearer(token), query: { query } });
  const today = () => app.clock.now().toISOString().slice(0, 10);

  beforeAll(async () => {
    app = await startTestApp({ tokenTtlSeconds: 3600 });
    await app.seed([
      { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' },
      { schoolname: 'Yale University', city: 'New Haven', stateprovince: 'CT' },
    ]);
    await app.services.auth.createUser(EMAIL, PASSWORD);
    // Usage on two days: 2 searches three days ago, 3 today.
    const token = (await app.services.auth.login(EMAIL, PASSWORD)).value;
    app.clock.advance(-3 * DAY_S);
    for (const q of ['yale', 'yale university']) await search(token, q);
    app.clock.advance(3 * DAY_S);
    await search(token, 'harvard');
    // One search with every parameter, which the history shows besides its words.
    await fetchSchoolSearch({
      client: bearer(token),
      query: {
        query: 'harvard university',
        stateCode: 'ma',
        level: ['postsecondary'],
        type: ['private', 'postsecondary'],
        near: '42.3736,-71.1097',
        radius_km: 2.5,
        offset: 5,
        limit: 10,
      },
    });
    await search(token, 'cambridge');

    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    page.on('console', (message) => {
      // The browser logs every 4xx answer; those are expected here. Anything else is a finding.
      if (
        message.type() === 'error' &&
        !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
      )
        pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function expectAccessible(name: string): Promise<void> {
    await screenshot(page, name);
    expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  }

  /** The secret-key form (the keys view has a publishable-key form too, with the same labels). */
  const secretForm = () => page.getByRole('form', { name: 'Create a secret key' });

  const sessionToken = () =>
    page.evaluate(
      () =>
        JSON.parse(sessionStorage.getItem('school-search.dashboard.session') ?? 'null')?.token as string | undefined,
    );

  test('when a page opens, then its icon is served, and no file it asks for is missing', async () => {
    const fresh = await context.newPage();
    const missingFiles: string[] = [];
    const icons: number[] = [];
    fresh.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/favicon')) icons.push(response.status());
      if (response.status() === 404) missingFiles.push(path);
    });
    for (const path of ['/dashboard', '/picker/v1/demo']) {
      await fresh.goto(`${app.baseUrl}${path}`);
      await fresh.waitForLoadState('networkidle');
    }
    await fresh.close();
    expect(missingFiles).toEqual([]);
    expect(icons.length).toBeGreaterThan(0);
    expect(icons.every((status) => status === 200)).toBe(true);
    const icon = await fetch(`${app.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  test('the page is served with a strict CSP (own scripts only, no inline, Trusted Types) and immutable hashed assets', async () => {
    const response = await fetch(`${app.baseUrl}/dashboard`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "require-trusted-types-for 'script'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = await response.text();
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|\son\w+=/);
    const script = /src="(\/dashboard\/app-[\w-]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${app.baseUrl}${script}`);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const unknown = await fetch(`${app.baseUrl}/dashboard/app-nothing.js`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  test('when the password is wrong, then the page says so, and stays signed out', async () => {
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible('sign-in');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail or the password is not right.');
    expect(await sessionToken()).toBeUndefined();
    await expectAccessible('sign-in-wrong-password');
  });

  test('when the user signs in with the keyboard alone, then the account shows totals and the 30-day chart with the right counts', async () => {
    await page.goto(`${app.baseUrl}/dashboard`);
    // The e-mail field has the focus; Tab to the password, Enter submits.
    await page.getByLabel('E-mail').waitFor();
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.locator('.chart rect.bar').first().waitFor({ state: 'attached' });
    expect(await page.locator('[data-fact="E-mail"]').textContent()).toBe(EMAIL);
    expect(await page.locator('[data-fact="Requests"]').textContent()).toBe('5');

    const bars = await page
      .locator('.chart rect.bar')
      .evaluateAll((rects) =>
        rects.map((r) => [r.getAttribute('data-date'), Number(r.getAttribute('data-count'))] as const),
      );
    expect(bars).toHaveLength(30);
    const threeDaysAgo = new Date(app.clock.now().getTime() - 3 * DAY_S * 1000).toISOString().slice(0, 10);
    expect(bars.filter(([, n]) => n > 0)).toEqual([
      [threeDaysAgo, 2],
      [today(), 3],
    ]);
    // The chart shows what the API says.
    const usage = (await fetchMyUsage({ client: bearer((await sessionToken())!), query: { days: 30 } })).data!;
    expect(bars).toEqual(usage.days.map((d) => [d.date, d.request_count]));
    expect(await page.locator('.usage figcaption').textContent()).toContain('5 requests in the last 30 days');
    await expectAccessible('account');
  });

  test('when the page is reloaded, then it is still signed in (same token)', async () => {
    const before = await sessionToken();
    await page.reload();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(await sessionToken()).toBe(before);
  });

  test('when a key is created, then its value is shown once with a copy button, it searches through the API, and revoking it in the page makes it 401', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await secretForm().getByLabel('Name').fill('browser key');
    await secretForm().getByLabel('Lifetime').selectOption('30');
    // A key needs the account's password, not only the session: a wrong one creates nothing.
    await secretForm().getByLabel('Your password').fill('not-the-password');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => secretForm().getByRole('alert').textContent()).toBe('The password is not right.');
    expect(await page.locator('#new-key-value').count()).toBe(0);
    await secretForm().getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = page.locator('#new-key-value');
    await value.waitFor();
    const key = await value.inputValue();
    expect(key).toMatch(/^ssk_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('.copied').textContent()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectAccessible('keys-created');

    // The key works through the API, as its user.
    const found = await search(key, 'harvard browser-key');
    expect(found.response!.status).toBe(200);
    expect((await fetchMyData({ client: bearer(key) })).data!.email).toBe(EMAIL);

    // Listed with its name and a hint only; the value is gone once the panel is dismissed.
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('tr', { has: page.getByRole('rowheader', { name: 'browser key' }) });
    await row.waitFor();
    expect(await row.locator('code').textContent()).toBe(`${key.slice(0, 8)}…`);
    expect(await page.content()).not.toContain(key.slice(8));

    await row.getByRole('button', { name: 'Revoke key browser key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “browser key”?' });
    await dialog.waitFor();
    await expectAccessible('keys-revoke-dialog');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.locator('#keys-status').textContent()).toBe('The key “browser key” is revoked.');
    await expect.poll(() => row.count()).toBe(0);
    expect((await search(key, 'harvard')).response!.status).toBe(401);
  });

  test('when a key is rotated in the page, then the old value is 401 and the new one 200', async () => {
    await secretForm().getByLabel('Name').fill('rotating key');
    await secretForm().getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key-value').waitFor();
    const old = await page.locator('#new-key-value').inputValue();
    await page.getByRole('button', { name: 'Done' }).click();
    expect((await search(old, 'yale rotating-key')).response!.status).toBe(200);

    await page.getByRole('button', { name: 'Rotate key rotating key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate “rotating key”?' });
    await dialog.getByLabel('Your password').fill(PASSWORD);
    await expectAccessible('keys-rotate-dialog');
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('heading', { name: 'The new value of “rotating key”' }).waitFor();
    const next = await page.locator('#new-key-value').inputValue();
    expect(next).not.toBe(old);
    expect((await search(old, 'yale')).response!.status).toBe(401);
    expect((await search(next, 'yale rotated-key')).response!.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    // One key left, named as before; this browser's session is marked.
    await expect.poll(() => page.getByRole('rowheader', { name: 'rotating key' }).count()).toBe(1);
    expect(await page.getByText('This browser').count()).toBe(1);
    await expectAccessible('keys');
  });

  test('when the key whose new value is on screen is revoked, then the panel with the dead value goes too', async () => {
    await secretForm().getByLabel('Name').fill('short-lived key');
    await secretForm().getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = page.locator('#new-key-value');
    await value.waitFor();
    const key = await value.inputValue();
    // Not dismissed: revoked straight from the list below it.
    await page.getByRole('button', { name: 'Revoke key short-lived key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.locator('#keys-status').textContent()).toBe('The key “short-lived key” is revoked.');
    await expect.poll(() => value.count()).toBe(0);
    expect(await page.getByText('Copy it now').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
  });

  test('when the history is opened, then it lists the searches made, newest first, with their cost', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'Request history' }).waitFor();
    const requests = page.locator('td.request');
    await requests.first().waitFor();
    const texts = await requests.allTextContents();
    expect(texts.slice(0, 3)).toEqual([
      'Search “yale rotated-key”',
      'Search “yale rotating-key”',
      'Search “harvard browser-key”',
    ]);
    expect(texts).toContain('Search “yale university”');
    expect(texts).toHaveLength(8);
    const parameters = await page.locator('td.parameters').allTextContents();
    expect(parameters[texts.indexOf('Search “harvard university”')]).toBe(
      'MA · postsecondary · private or postsecondary · within 2.5 km of 42.3736,-71.1097 · results 6–15',
    );
    expect(parameters[texts.indexOf('Search “cambridge”')]).toBe('results 1–25');
    expect(await page.getByRole('status').filter({ hasText: 'of 8' }).textContent()).toBe('1–8 of 8');
    await expectAccessible('history');
  });

  test('when the current password is wrong, then nothing changes and the page says so; when right, other sessions end and keys stay', async () => {
    const other = (await app.services.auth.login(EMAIL, PASSWORD)).value;
    const key = await app.services.keys.create(await app.services.auth.authenticate(other), 'kept key', 30, PASSWORD);
    await page.getByRole('link', { name: 'Password' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await page.getByLabel('Current password').fill('not-the-password');
    await page.getByLabel('New password', { exact: true }).fill('a-new-password-2');
    await page.getByLabel('New password again').fill('a-new-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() => page.locator('#password-message').textContent())
      .toBe('The current password is not right. Nothing changed.');
    await expectAccessible('password');
    expect((await fetchMyData({ client: bearer(other) })).response!.status).toBe(200);

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.locator('#password-message').textContent()).toMatch(/^Your password is changed/);
    expect((await fetchMyData({ client: bearer(other) })).response!.status).toBe(401);
    // API keys keep working unless the person asks (the box left unticked).
    expect((await fetchMyData({ client: bearer(key.value) })).response!.status).toBe(200);
    // This browser stays signed in.
    expect((await fetchMyData({ client: bearer((await sessionToken())!) })).response!.status).toBe(200);
  });

  test('when the user signs out, then the token is revoked on the server and the page is back at sign-in', async () => {
    const token = (await sessionToken())!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('You are signed out.');
    expect(await sessionToken()).toBeUndefined();
    expect((await fetchMyData({ client: bearer(token) })).response!.status).toBe(401);
    // A reload stays signed out.
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  test('when the session is revoked elsewhere, then the next view says the session ended and asks to sign in', async () => {
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill('a-new-password-2');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    const token = (await sessionToken())!;
    await app.services.auth.revokeCurrent(await app.services.auth.authenticate(token));
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/^Your session has ended/);
  });

  test('at phone width (375 px), every page fits without sideways scrolling', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(`${app.baseUrl}/dashboard`);
    await phone.getByLabel('E-mail').fill(EMAIL);
    await phone.getByLabel('Password').fill('a-new-password-2');
    await phone.getByRole('button', { name: 'Sign in' }).click();
    await phone.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    // A key with a long name and another session: rows with Rotate, Revoke and Sign out to place.
    const other = await app.services.auth.login(EMAIL, 'a-new-password-2');
    await app.services.keys.create(
      await app.services.auth.authenticate(other.value),
      'a rather long key name for the nightly sync',
      30,
      'a-new-password-2',
    );
    for (const [hash, heading] of [
      ['account', 'Account'],
      ['keys', 'API keys'],
      ['history', 'Request history'],
      ['password', 'Change password'],
    ] as const) {
      await phone.goto(`${app.baseUrl}/dashboard#${hash}`);
      await phone.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await phone.waitForLoadState('networkidle');
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${hash} is wider than the screen`).toBeLessThanOrEqual(0);
      // Nor does any part of it scroll sideways (a table in a scrolling box would hide its actions).
      const scrolling = await phone.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter(
            (e) => e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX),
          )
          .map((e) => e.className || e.tagName),
      );
      expect(scrolling, `${hash} has a part that scrolls sideways`).toEqual([]);
      // Every action is on screen, and no date takes more than two lines.
      const actions = await phone.evaluate(() =>
        [...document.querySelectorAll('main button, main a')].map((e) => {
          const box = e.getBoundingClientRect();
          return { text: e.textContent, left: box.left, right: box.right };
        }),
      );
      for (const a of actions) expect(a.right, `${hash}: “${a.text}” is off screen`).toBeLessThanOrEqual(375);
      if (hash === 'keys')
        expect(actions.map((a) => a.text)).toEqual(expect.arrayContaining(['Rotate', 'Revoke', 'Sign out']));
      const tallest = await phone.evaluate(() =>
        Math.max(
          0,
          ...[...document.querySelectorAll('td[data-label]')]
            .filter((td) => /Created|Expires|Last used|Signed in|Time/.test(td.getAttribute('data-label')!))
            .map((td) => {
              const style = getComputedStyle(td);
              const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
              return td.getBoundingClientRect().height / line;
            }),
        ),
      );
      expect(tallest, `${hash}: a date wraps`).toBeLessThan(3);
      await screenshot(phone, `phone-${hash}`);
    }
    await phone.close();
  });

  test('then the page reported no script error and no CSP violation', () => {
    expect(pageErrors).toEqual([]);
  });
});

describe.skipIf(missing !== undefined)('the dashboard under the login quota', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp({ rateLimits: { ...RATE_LIMITS_OFF, loginFailuresPerEmailAndClient: 2 } });
    await app.services.auth.createUser(EMAIL, PASSWORD);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test('when sign-in is throttled, then the page says when to try again', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.baseUrl}/dashboard`);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await page.getByLabel('E-mail').fill(EMAIL);
      await page.getByLabel('Password').fill(`wrong-password-${attempt}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      if (attempt < 3)
        await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail or the password is not right.');
    }
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/);
    await screenshot(page, 'sign-in-throttled');
  });
});
