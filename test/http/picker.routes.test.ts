// The school picker's routes without a browser (the browser tests, test/browser/picker.test.ts,
// are skipped where there is no Chromium): the script's headers whatever CORS_ORIGINS says, its
// revalidation by content hash, and the demo page, whose query string reaches the page only as
// a key-shaped string, an http(s) URL and a school id.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const SCRIPT = '/picker/v1/school-picker.js';
let app: TestApp;
beforeAll(async () => {
  // CORS for programs restricted to one origin: the script is still for every page.
  app = await startTestApp({ corsOrigins: ['https://program.example'] });
});
afterAll(() => app.close());

describe('GET /picker/v1/school-picker.js', () => {
  test('when any page asks, then it is JavaScript, CORS *, cross-origin CORP, an hour in caches, with a content-hash ETag', async () => {
    const r = await fetch(`${app.baseUrl}${SCRIPT}`, { headers: { Origin: 'https://any-site.example' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await r.arrayBuffer());
    expect(r.headers.get('etag')).toBe(`"${createHash('sha256').update(body).digest('base64url')}"`);
    expect(body.toString()).toContain('customElements.define("school-picker"');
  });

  test('when the browser revalidates with its ETag (strong, weak, or in a list), then 304 with no body; with another, 200', async () => {
    const etag = (await fetch(`${app.baseUrl}${SCRIPT}`)).headers.get('etag')!;
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await fetch(`${app.baseUrl}${SCRIPT}`, { headers: { 'If-None-Match': tag } });
      expect(r.status, tag).toBe(304);
      expect(r.headers.get('etag')).toBe(etag);
      expect(await r.text()).toBe('');
    }
    expect((await fetch(`${app.baseUrl}${SCRIPT}`, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
  });

  test('when HEAD is asked, then the headers without the body; another file under /picker/v1/ is the 404 problem', async () => {
    const head = await fetch(`${app.baseUrl}${SCRIPT}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('access-control-allow-origin')).toBe('*');
    expect(await head.text()).toBe('');
    const other = await fetch(`${app.baseUrl}/picker/v1/other.js`);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('GET /picker/v1/demo', () => {
  const demo = (query: string) => fetch(`${app.baseUrl}/picker/v1/demo?${query}`);

  test('when a key and an API are given, then they are the picker’s attributes, and the API’s origin alone is added to connect-src', async () => {
    const r = await demo('key=spk_abc-DEF_123&api=https%3A%2F%2Fapi.example.org%2Fschools%2F');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("connect-src 'self' https://api.example.org;");
    for (const directive of ["script-src 'self'", "style-src 'self'", "require-trusted-types-for 'script'"])
      expect(csp).toContain(directive);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const html = await r.text();
    expect(html).toContain('key="spk_abc-DEF_123"');
    expect(html).toContain('api="https://api.example.org/schools/"');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|\son\w+=/);
  });

  test.each([
    ['a key with markup', `key=${encodeURIComponent('spk_x"><script>alert(1)</script>')}`, /alert|spk_x/],
    ['a secret key', 'key=ssk_abcdefghijklmnop', /ssk_/],
    ['a javascript: API', `api=${encodeURIComponent('javascript:alert(1)')}`, /alert/],
    ['an API that is no URL', `api=${encodeURIComponent('"><b>x</b>')}`, /<b>/],
    ['a school that is no id', `school=${encodeURIComponent('<i>1</i>')}`, /<i>|The form sent/],
  ])('when the query string has %s, then none of it reaches the page or its CSP', async (_label, query, absent) => {
    const r = await demo(query);
    expect(r.status).toBe(200);
    expect(await r.text()).not.toMatch(absent);
    expect(r.headers.get('content-security-policy')).toContain("connect-src 'self';");
  });

  test('when the form came back with a school id, then the page says what it sent and the picker starts with it', async () => {
    const id = 'f10acf2b-e7bd-50fc-892e-50b34cddeaca';
    const html = await (await demo(`key=spk_k&school=${id}`)).text();
    expect(html).toContain(`The form sent <code>school=${id}</code>.`);
    expect(html).toContain(`value="${id}"`);
    expect(html).toContain('<input type="hidden" name="key" value="spk_k">');
  });

  test('when no key is given, then the page says how to get one', async () => {
    expect(await (await demo('')).text()).toContain('Add <code>?key=spk_…</code>');
  });
});
