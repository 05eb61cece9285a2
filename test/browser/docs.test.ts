// Swagger UI (/docs) in Chromium: a search tried there sends what the user typed and nothing the
// contract's examples would have pre-filled (a state filter would bill a search nobody meant).
// And `GET /`: a browser lands on the dashboard, a program gets an index of links.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { browserMissing, launch, screenshot } from '../../scripts/clients/browser.ts';

const missing = browserMissing();
if (missing) console.warn(`docs browser tests — skipped: ${missing}`);

describe.skipIf(missing !== undefined)('Swagger UI and the root in Chromium', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    await app.seed([
      { schoolname: 'Yale University', city: 'New Haven', stateprovince: 'CT' },
      { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' },
    ]);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test("when the dashboard's own link opens /docs in the same tab, then no script there can read the dashboard's token", async () => {
    const user = await app.userClient();
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(5000);
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    const token = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem('school-search.dashboard.session') ?? 'null')?.token as string,
    );
    expect(token).toMatch(/^ssk_/);

    await page.getByRole('link', { name: 'API documentation' }).click();
    await page.waitForURL(`${app.baseUrl}/docs/`);
    await page.getByRole('button', { name: 'Authorize' }).first().waitFor();
    // What a script on the docs page can reach of this origin's storage.
    const reach = await page.evaluate(() => {
      const attempt = (read: () => unknown) => {
        try {
          return JSON.stringify(read() ?? null);
        } catch (error) {
          return `refused: ${(error as Error).name}`;
        }
      };
      return {
        origin: self.origin,
        session: attempt(() => Object.entries(sessionStorage)),
        local: attempt(() => Object.entries(localStorage)),
        cookies: attempt(() => document.cookie),
      };
    });
    expect(reach.origin).toBe('null');
    expect(JSON.stringify(reach)).not.toContain(token);
    expect(reach.session).toBe('refused: SecurityError');
    expect(reach.local).toBe('refused: SecurityError');
    // Back on the dashboard, the session is still there: only the docs were kept out.
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    await context.close();
  });

  test('when only a query is typed in "Try it out", then the request carries only that query (no state filter) and finds the school', async () => {
    const user = await app.userClient();
    const page = await browser.newPage();
    page.setDefaultTimeout(5000);
    await page.goto(`${app.baseUrl}/docs`);
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const modal = page.locator('.modal-ux');
    await modal.locator('input').first().fill(user.token);
    await modal.locator('button.modal-btn.authorize').first().click();
    await modal.locator('button.btn-done').first().click();
    await page.locator('#operations-schools-fetchSchoolSearch').click();
    const operation = page.locator('#operations-schools-fetchSchoolSearch');
    await operation.locator('tr[data-param-name="query"] input').fill('yale');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/v1/fetchSchoolSearch')),
      operation.getByRole('button', { name: 'Execute' }).click(),
    ]);
    const sent = new URL(request.url()).searchParams;
    expect(sent.get('query')).toBe('yale');
    // No filter the user did not ask for (the contract gives them no example to prefill).
    for (const filter of ['stateCode', 'level', 'type', 'near', 'radius_km']) expect(sent.has(filter)).toBe(false);
    // Paging, when sent, is the contract's defaults: the search is exactly the typed one.
    for (const [name, value] of [
      ['offset', '0'],
      ['limit', '25'],
    ] as const)
      if (sent.has(name)) expect(sent.get(name)).toBe(value);
    const response = await request.response();
    expect(response!.status()).toBe(200);
    expect(((await response!.json()) as { requestresult: { total_count: number } }).requestresult.total_count).toBe(1);
    await screenshot(page, 'docs-search');
    await page.close();
  });

  test('when a browser opens /, then it lands on the dashboard; a program gets the index of links', async () => {
    const page = await browser.newPage();
    await page.goto(app.baseUrl);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.close();
    const index = await fetch(`${app.baseUrl}/`, { headers: { Accept: 'application/json' } });
    expect(index.status).toBe(200);
    expect(index.headers.get('vary')).toMatch(/accept/i);
    expect(await index.json()).toMatchObject({
      links: { dashboard: '/dashboard', docs: '/docs', openapi: '/openapi.json' },
    });
    const bare = await fetch(`${app.baseUrl}/`);
    expect((await bare.json()).links.docs).toBe('/docs');
  });
});
