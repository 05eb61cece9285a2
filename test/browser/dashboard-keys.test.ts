// Publishable keys in the dashboard (issue 40), in Chromium against the real app: the first-run
// panel of a new account (a key for this origin, the try-it panel, the snippets), a publishable key
// created in the keys view (origins checked as the server checks them), listed with its origins
// and budgets, re-scoped, used from a page's origin (fetch with an Origin header, as a browser
// sends it) and then counted per key and per origin; the try-it view's snippets, which work as
// written; axe at 1280 px and 375 px. The picker module itself is tested with the picker; until
// this server serves it, the frame says so, and that is what is checked here.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listMyTokens } from '../../generated/sdk.gen.ts';
import { browserMissing, launch, screenshot, seriousViolations } from '../../scripts/clients/browser.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const missing = browserMissing();
if (missing) console.warn(`dashboard keys browser tests — skipped: ${missing}`);

const PASSWORD = 'keys-password-123';
const SITE = 'https://www.example.org';

// Each test walks several pages and runs axe on them: on a loaded 2-core machine (every browser
// test file at once) one takes well over the default 20 s.
describe.skipIf(missing !== undefined)('publishable keys in the dashboard, in Chromium', { timeout: 60_000 }, () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  let keyValue = '';
  let keyId = '';
  /** The first-run key, for the dashboard's own origin. */
  let firstKey = '';

  beforeAll(async () => {
    app = await startTestApp({ tokenTtlSeconds: 3600 });
    await app.seed([
      { schoolname: 'Lincoln High School', city: 'Lincoln', stateprovince: 'NE' },
      { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' },
    ]);
    await app.services.auth.createUser('new.user@example.com', PASSWORD);
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    // A step that cannot happen fails on its own locator, well within the test's time.
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    page.on('console', (message) => {
      // 4xx answers are logged by the browser (a wrong origin, the picker module not served yet).
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

  async function signIn(on: Page, email: string): Promise<void> {
    await on.goto(`${app.baseUrl}/dashboard`);
    await on.getByLabel('E-mail').fill(email);
    await on.getByLabel('Password').fill(PASSWORD);
    await on.getByRole('button', { name: 'Sign in' }).click();
    await on.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  }

  async function expectAccessible(on: Page, name: string): Promise<void> {
    await screenshot(on, name);
    expect(await seriousViolations(on), `axe on ${name}`).toEqual([]);
  }

  const sessionToken = (on: Page) =>
    on.evaluate(() => JSON.parse(sessionStorage.getItem('school-search.dashboard.session') ?? 'null')?.token as string);

  /** A search as a page of `origin` makes it: a simple GET with the key in the query and the Origin header. */
  const searchFrom = (origin: string, key: string, query: string) =>
    fetch(`${app.baseUrl}/v1/fetchSchoolSearch?${new URLSearchParams({ query, key })}`, {
      headers: { Origin: origin },
    });

  /** The picker's frame, and what it says: the module is not served on this branch yet, or the picker runs. */
  async function expectPickerFrame(on: Page, key: string): Promise<void> {
    const frameElement = on.locator('iframe#picker-frame');
    await frameElement.waitFor();
    expect(await frameElement.getAttribute('src')).toContain(`key=${key}`);
    const frame = on.frameLocator('iframe#picker-frame');
    await expect
      .poll(async () =>
        (await frame.locator('school-picker').count()) > 0
          ? 'picker'
          : await frame.locator('#picker-status').textContent(),
      )
      .toMatch(/^picker$|^The school picker is not available on this server yet/);
  }

  test('the try-it frame may be framed by the dashboard only, runs own scripts only, and sends its Referer to this origin alone', async () => {
    const response = await fetch(`${app.baseUrl}/dashboard/picker-frame`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'self'",
      "require-trusted-types-for 'script'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toMatch(/script-src[^;]*unsafe|https?:/);
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    // Same-origin GETs carry no Origin: the Referer is how the picker's requests name this page.
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    expect(await response.text()).toMatch(/<script type="module" src="\/dashboard\/frame-[\w-]+\.js"><\/script>/);
    expect((await fetch(`${app.baseUrl}/dashboard`)).headers.get('content-security-policy')).toContain(
      "frame-src 'self'",
    );
  });

  test('when a new account signs in, then the account shows the first-run panel; its key works on this origin, and the try-it panel and snippets follow', async () => {
    await signIn(page, 'new.user@example.com');
    const panel = page.getByRole('region', { name: 'Get started' });
    await panel.waitFor();
    expect(await page.locator('.chart').count()).toBe(0);
    const origins = page.getByLabel('Origins, one a line');
    expect(await origins.inputValue()).toBe(new URL(app.baseUrl).origin);
    await expectAccessible(page, 'first-run');

    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create publishable key' }).click();
    const created = page.locator('#first-run-created code');
    await created.waitFor();
    const key = (await created.textContent())!;
    expect(key).toMatch(/^spk_[A-Za-z0-9_-]{43}$/);
    await expectPickerFrame(page, key);
    const html = (await page.locator('#snippet-html').textContent())!;
    expect(html).toContain(`<script type="module" src="${app.baseUrl}/picker/v1/school-picker.js"></script>`);
    expect(html).toContain(`key="${key}"`);
    expect(html).toContain(`api="${app.baseUrl}"`);
    await page.getByRole('button', { name: 'Copy HTML' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(html);
    await expectAccessible(page, 'first-run-created');
    // The key is for this origin: a page here may search with it.
    expect((await searchFrom(new URL(app.baseUrl).origin, key, 'lincoln')).status).toBe(200);
    firstKey = key;
  });

  test('when a picker module is served, then the frame runs it with the key, and its searches are admitted by the frame’s origin', async () => {
    // A stand-in for the picker (built beside this in its own module): it searches as the real
    // one does, from the frame, and emits school-select. The frame's requests carry no Origin
    // (same-origin GETs) and reach the key's origin check through their Referer alone.
    const stub = [
      "customElements.define('school-picker', class extends HTMLElement {",
      '  async connectedCallback() {',
      "    const api = this.getAttribute('api'); const key = this.getAttribute('key');",
      "    const answer = await fetch(api + '/v1/fetchSchoolSearch?query=lincoln&key=' + key);",
      '    this.dataset.status = String(answer.status);',
      '    const school = (await answer.json()).requestresult.schools[0];',
      "    this.dispatchEvent(new CustomEvent('school-select', { detail: { id: school.schoolid, school } }));",
      '  }',
      '});',
    ].join('\n');
    const tab = await context.newPage();
    await tab.route('**/picker/v1/school-picker.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: stub }),
    );
    try {
      await tab.goto(`${app.baseUrl}/dashboard/picker-frame#key=${firstKey}&state-code=NE`);
      const picker = tab.locator('school-picker');
      await expect.poll(() => picker.getAttribute('data-status')).toBe('200');
      expect(await picker.getAttribute('state-code')).toBe('NE');
      await expect
        .poll(() => tab.locator('#picker-choice').textContent())
        .toMatch(/^school-select: Lincoln High School \(Lincoln, NE\), id /);
    } finally {
      await tab.close();
    }
  });

  test('when a publishable key is created in the keys view, then a bad origin is refused with the server’s words, and the key is listed with its origins and budgets', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Create a publishable key' });
    await form.getByLabel('Name').fill('site search');
    await form.getByLabel('Password').fill(PASSWORD);
    const alert = form.getByRole('alert');
    // Refused by the contract's pattern: said as the server says it, nothing sent.
    await form.getByLabel('Origins, one a line').fill(`${SITE}/\n`);
    await form.getByRole('button', { name: 'Create publishable key' }).click();
    await expect
      .poll(() => alert.textContent())
      .toBe(
        `The origin "${SITE}/" must be scheme://host[:port] with http or https, and no path, query or trailing slash.`,
      );
    expect(await form.getByLabel('Origins, one a line').getAttribute('aria-invalid')).toBe('true');
    // Refused by the server beyond the pattern: its message as it is.
    await form.getByLabel('Origins, one a line').fill('https://*.org');
    await form.getByRole('button', { name: 'Create publishable key' }).click();
    await expect.poll(() => alert.textContent()).toMatch(/must put the wildcard before a domain/);
    // A budget above what the account may spend: the server's message names the limit.
    await form.getByLabel('Origins, one a line').fill(`${SITE}\n\nhttps://*.example.net\n`);
    // (Within the contract's bound, beyond this server's: the server says its limit.)
    await form.getByLabel('Searches a minute', { exact: true }).fill('100000');
    await form.getByRole('button', { name: 'Create publishable key' }).click();
    await expect.poll(() => alert.textContent()).toMatch(/searches_per_minute: must be 1 to 300, what the account/);
    await form.getByLabel('Searches a minute', { exact: true }).fill('30');
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Create publishable key' }).click();
    const value = page.locator('#new-key-value');
    await value.waitFor();
    keyValue = await value.inputValue();
    expect(keyValue).toMatch(/^spk_[A-Za-z0-9_-]{43}$/);
    expect(await form.locator('.error').textContent()).toBe('');
    await expectAccessible(page, 'keys-publishable-created');
    await page.getByRole('button', { name: 'Done' }).click();

    const row = page.locator('tr', { has: page.getByRole('rowheader', { name: 'site search' }) });
    await row.waitFor();
    expect(await row.locator('td.origins li').allTextContents()).toEqual([SITE, 'https://*.example.net']);
    expect(await row.locator('td.budgets').textContent()).toBe('30 a minute, 100,000 a day, 30 a minute per visitor');
    expect(await row.locator('code').first().textContent()).toBe(`${keyValue.slice(0, 8)}…`);
    const tokens = (await listMyTokens({ client: app.client({ Authorization: `Bearer ${await sessionToken(page)}` }) }))
      .data!.tokens;
    keyId = tokens.find((t) => t.name === 'site search')!.token_id;
    expect(await row.getAttribute('data-token-id')).toBe(keyId);
    // The first-run key is listed too, under publishable keys; there is no secret key yet.
    expect(await page.getByText('No secret keys yet.').count()).toBe(1);
    expect(await page.getByRole('rowheader', { name: 'My first page' }).count()).toBe(1);
    await expectAccessible(page, 'keys-publishable');
  });

  test('when a publishable key is re-scoped in the page, then the new origins work and the old one is refused at once', async () => {
    expect((await searchFrom(SITE, keyValue, 'lincoln')).status).toBe(200);
    await page.getByRole('button', { name: 'Edit key site search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit “site search”' });
    await dialog.waitFor();
    await dialog.getByLabel('Origins, one a line').fill('https://shop.example.org');
    await dialog.getByLabel('Searches a day').fill('500');
    await dialog.getByLabel('Name').fill('shop search');
    await expectAccessible(page, 'keys-edit-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#keys-status').textContent()).toBe('The key “site search” is saved.');
    const row = page.locator('tr', { has: page.getByRole('rowheader', { name: 'shop search' }) });
    await row.waitFor();
    expect(await row.locator('td.origins li').allTextContents()).toEqual(['https://shop.example.org']);
    expect(await row.locator('td.budgets').textContent()).toBe('30 a minute, 500 a day, 30 a minute per visitor');
    // The page removed from the list is refused now; the one added is let in.
    const refused = await searchFrom(SITE, keyValue, 'lincoln');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { type: string }).type).toBe('/problems/origin-not-allowed');
    const found = await searchFrom('https://shop.example.org', keyValue, 'harvard');
    expect(found.status).toBe(200);
    expect(found.headers.get('access-control-allow-origin')).toBe('https://shop.example.org');
  });

  test('when a secret key is renamed, then its dialog has a name only (no origins), and the list shows the new name', async () => {
    const form = page.getByRole('form', { name: 'Create a secret key' });
    // A name the contract refuses is stopped by the client's own check, and said as a sentence.
    await form.getByLabel('Name').fill('n'.repeat(65));
    await form.getByLabel('Your password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => form.locator('.error').textContent()).toMatch(/^Check name: .+\.$/);
    await form.getByLabel('Name').fill('nightly sync');
    await form.getByLabel('Your password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key-value').waitFor();
    expect(await page.locator('#new-key-value').inputValue()).toMatch(/^ssk_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Rename key nightly sync' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename “nightly sync”' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Origins, one a line').count()).toBe(0);
    await dialog.getByLabel('Name').fill('weekly sync');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name: 'weekly sync' }).waitFor();
    expect(await page.getByRole('rowheader', { name: 'nightly sync' }).count()).toBe(0);
  });

  test('when the key searched from a page, then the account counts it per key and per origin, and the history names key and origin', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    // Requests made: no more first-run panel, the chart and the tables per key and per origin.
    await page.locator('.chart').waitFor();
    expect(await page.getByRole('region', { name: 'Get started' }).count()).toBe(0);
    const perKey = page.getByRole('region', { name: 'Requests per key' });
    const shop = perKey.locator('tr', { has: page.getByRole('rowheader', { name: 'shop search' }) });
    // Two searches with it: from the site before the re-scope, from the shop after.
    expect(await shop.locator('td').first().textContent()).toBe('2');
    const perOrigin = page.getByRole('region', { name: 'Requests per origin' });
    const shopOrigin = perOrigin.locator('tr', {
      has: page.getByRole('rowheader', { name: 'https://shop.example.org' }),
    });
    expect(await shopOrigin.locator('td').first().textContent()).toBe('1');
    // The chart for that key alone.
    await page.getByLabel('Show').selectOption({ label: 'shop search' });
    await expect
      .poll(() =>
        page
          .locator('.chart rect.bar')
          .evaluateAll((rects) => rects.reduce((sum, r) => sum + Number(r.getAttribute('data-count')), 0)),
      )
      .toBe(2);
    await expectAccessible(page, 'account-per-key');

    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'Request history' }).waitFor();
    await page.locator('td.request').first().waitFor();
    expect(await page.locator('td.key').first().textContent()).toBe('shop search');
    expect(await page.locator('td.origin').first().textContent()).toBe('https://shop.example.org');
    await page.getByLabel('Show').selectOption({ label: 'shop search' });
    await expect
      .poll(() => page.locator('td.request').allTextContents())
      .toEqual(['Search “harvard”', 'Search “lincoln”']);
    await expectAccessible(page, 'history-per-key');
  });

  test('when the try-it view is opened for a key this tab made, then the frame and the snippets use it, and the curl snippet works as written', async () => {
    await page.goto(`${app.baseUrl}/dashboard#try/${keyId}`);
    await page.getByRole('heading', { name: 'Try it', level: 1 }).waitFor();
    // This tab made the key: the view knows its value.
    await expect.poll(() => page.locator('#snippet-html').textContent()).toContain(`key="${keyValue}"`);
    expect(await page.getByLabel('Publishable key').inputValue()).toBe(keyId);
    // A reload forgets the value (it is kept in memory only): the page asks for it.
    await page.reload();
    await page.getByLabel('The key’s value').fill(keyValue.replace(/.$/, '?'));
    await page.getByLabel('The key’s value').press('Enter');
    await page.getByLabel('The key’s value').press('Tab');
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/^That is not the value of this key/);
    await page.getByLabel('The key’s value').fill(keyValue);
    await page.getByLabel('The key’s value').press('Tab');
    // The key does not list this origin: the page says why the picker here is refused.
    await page.locator('#try-origin-notice').waitFor();
    await expectPickerFrame(page, keyValue);
    await page.getByLabel('State or province').first().fill('ne');
    await page.getByLabel('State or province').first().press('Tab');
    await expect.poll(() => page.locator('#snippet-html').textContent()).toContain('state-code="NE"');
    const curl = (await page.locator('#snippet-curl').textContent())!;
    expect(curl).toContain(`key=${keyValue}`);
    expect(curl).toContain("-H 'Origin: https://shop.example.org'");
    // The snippet's request, as curl would send it.
    const url = /curl '([^']+)'/.exec(curl)![1]!;
    const answer = await fetch(url, { headers: { Origin: 'https://shop.example.org' } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { requestresult: { total_count: number } }).requestresult.total_count).toBe(1);
    expect(await page.locator('#snippet-typescript').textContent()).toContain(
      `new SchoolSearchClient({ baseUrl: '${app.baseUrl}', publishableKey: '${keyValue}' })`,
    );
    const python = (await page.locator('#snippet-python').textContent())!;
    expect(python).toContain(`publishable_key="${keyValue}"`);
    expect(python).toContain('httpx_args={"headers": {"Origin": "https://shop.example.org"}}');
    expect(python).toContain('api.search("lincoln", state_code="NE")');
    await expectAccessible(page, 'try-it');
  });

  test('when a search is made in the playground, then the raw answer and its request record are shown', async () => {
    await page.getByLabel('Query').fill('harvard');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const record = page.locator('#play-answer dd[data-field="trequestmade"]');
    await record.waitFor();
    expect(await record.textContent()).toBe('search_schools:harvard');
    const json = JSON.parse((await page.locator('#play-answer pre code').textContent())!) as {
      requestresult: { schools: Array<{ schoolname: string }> };
    };
    expect(json.requestresult.schools.map((s) => s.schoolname)).toEqual(['Harvard University']);
    await expectAccessible(page, 'try-it-playground');
  });

  test('at phone width (375 px), the first-run panel, the keys and the try-it view fit and pass axe', async () => {
    await app.services.auth.createUser('phone.user@example.com', PASSWORD);
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await signIn(phone, 'phone.user@example.com');
    await phone.getByRole('region', { name: 'Get started' }).waitFor();
    await phone.getByLabel('Your password').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Create publishable key' }).click();
    await phone.locator('#snippet-html').waitFor();
    for (const [hash, heading] of [
      ['account', 'Account'],
      ['keys', 'API keys'],
      ['try', 'Try it'],
    ] as const) {
      if (hash !== 'account') {
        await phone.goto(`${app.baseUrl}/dashboard#${hash}`);
        await phone.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await phone
          .locator(hash === 'keys' ? 'td.origins' : '#snippet-html')
          .first()
          .waitFor();
      }
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${hash} is wider than the screen`).toBeLessThanOrEqual(0);
      await expectAccessible(phone, `phone-${hash}-publishable`);
    }
    await phone.close();
  });

  test('then the pages reported no script error and no CSP violation', () => {
    expect(pageErrors).toEqual([]);
  });
});
