// GET /picker/v1/school-picker.js and /picker/v1/demo: the school picker for other sites' pages
// (clients/school-picker/, docs/picker.md), outside the contract's operations like the
// dashboard. `v1` is the element's interface (its attributes, events and parts): a change that
// breaks a page using it gets /picker/v2/, and v1 stays.
//
// The script is meant to be loaded by any page, as a module, so it is CORS `*` (a module
// script is fetched in CORS mode) and Cross-Origin-Resource-Policy cross-origin; an hour in any
// cache, then revalidated by its content hash. The demo page is this server's own page: a form
// with the picker and nothing else, under the dashboard's strict CSP.
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { PickerAssets } from './picker-assets.ts';

export const PICKER_PATH = '/picker/v1/school-picker.js';
const DEMO_PATH = '/picker/v1/demo';

/** A publishable key as the demo page accepts it from its query string: nothing else reaches the page. */
const KEY = /^spk_[A-Za-z0-9_-]{1,100}$/;
const SCHOOL_ID = /^[0-9A-Fa-f-]{36}$/;

const DEMO_CSS = `
body { margin: 0; font: 1rem/1.5 system-ui, sans-serif; color: #1f1f1f; background: #fff; }
main { max-width: 36rem; margin: 0 auto; padding: 1.5rem 1rem 20rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
code { overflow-wrap: anywhere; }
form { display: grid; gap: 1rem; margin-block: 1.5rem; }
button { justify-self: start; min-height: 2.75rem; padding: 0.5rem 1.25rem; font: inherit; color: #fff;
  background: #1a5fd0; border: 0; border-radius: 0.375rem; cursor: pointer; }
button:focus-visible { outline: 3px solid #1a5fd0; outline-offset: 2px; }
.note { padding: 0.75rem 1rem; background: #f3f3f3; border-radius: 0.375rem; }
`;

/** The demo's CSP: the dashboard's, with the API the picker talks to when it is another origin. */
function demoCsp(api: URL | undefined): string {
  const connect = api ? `'self' ${api.origin}` : "'self'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${connect}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' ? value : undefined;
}

function httpUrl(text: string | undefined): URL | undefined {
  if (text === undefined) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The demo page: `?key=` and `?api=` become the picker's attributes; `?school=` is what its form sent. */
function demoPage(key: string | undefined, api: URL | undefined, school: string | undefined): string {
  const attributes = [
    'name="school"',
    'label="Your school"',
    'placeholder="Start typing a school’s name"',
    'required',
    ...(key ? [`key="${escaped(key)}"`] : []),
    ...(api ? [`api="${escaped(api.href)}"`] : []),
    ...(school ? [`value="${escaped(school)}"`] : []),
  ].join(' ');
  const kept = [
    ...(key ? [`<input type="hidden" name="key" value="${escaped(key)}">`] : []),
    ...(api ? [`<input type="hidden" name="api" value="${escaped(api.href)}">`] : []),
  ].join('');
  const note = key
    ? ''
    : '<p class="note">Add <code>?key=spk_…</code> to this address: a publishable key whose origins list this server’s origin (the dashboard’s API keys page makes one).</p>';
  const sent = school ? `<p class="note" id="sent">The form sent <code>school=${escaped(school)}</code>.</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>School picker demo</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="demo.css">
<script type="module" src="school-picker.js"></script>
</head>
<body>
<main>
<h1>School picker demo</h1>
<p>A plain form with <code>&lt;school-picker&gt;</code> in it: type, choose with the arrow keys and Enter, then send the form.</p>
${note}${sent}
<form method="get" action="demo">
${kept}
<school-picker ${attributes}></school-picker>
<button type="submit">Send</button>
</form>
</main>
</body>
</html>
`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

export function pickerRoutes(assets: () => Promise<PickerAssets>): Router {
  const router = Router();
  router.get(PICKER_PATH, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { script, etag } = await assets();
      // Whatever CORS_ORIGINS says about programs: any page may load the script.
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.setHeader('ETag', etag);
      if (matches(req.headers['if-none-match'], etag)) return void res.status(304).end();
      res.type('text/javascript; charset=utf-8').send(script);
    } catch (error) {
      next(error);
    }
  });
  router.get(DEMO_PATH, (req, res) => {
    const key = queryText(req, 'key');
    const api = httpUrl(queryText(req, 'api'));
    const school = queryText(req, 'school');
    res.setHeader('Content-Security-Policy', demoCsp(api));
    res.setHeader('Cache-Control', 'no-store');
    res
      .type('text/html; charset=utf-8')
      .send(
        demoPage(
          key !== undefined && KEY.test(key) ? key : undefined,
          api,
          school !== undefined && SCHOOL_ID.test(school) ? school : undefined,
        ),
      );
  });
  router.get('/picker/v1/demo.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/css; charset=utf-8').send(DEMO_CSS);
  });
  return router;
}
