// Routes outside the contract's operations: the contract itself, Swagger UI, and the pages that
// problem `type` URIs point at. Mounted before the validator, which knows nothing of them.
import { Router, type NextFunction, type Request, type Response } from 'express';
import swaggerUi from 'swagger-ui-express';
import { Precompressed } from '../compression/precompressed.ts';
import type { Contract } from '../contract.ts';
import { PROBLEMS } from '../problems/problems.ts';
import { FAVICON_PATHS, favicon } from './favicon.ts';

/**
 * The files the Swagger UI page loads. swagger-ui-express would also serve everything else in
 * swagger-ui-dist (its README, source maps, package files) and the page itself for any path
 * under /docs; anything else falls through to the contract's 404 (problem+json).
 */
const SWAGGER_UI_FILES = new Set([
  '/',
  '/index.html',
  '/swagger-ui.css',
  '/swagger-ui-bundle.js',
  '/swagger-ui-standalone-preset.js',
  '/swagger-ui-init.js',
  '/favicon-32x32.png',
  '/favicon-16x16.png',
]);

function onlySwaggerUi(req: Request, _res: Response, next: NextFunction): void {
  next(req.method === 'GET' && SWAGGER_UI_FILES.has(req.path) ? undefined : 'router');
}

/**
 * Swagger UI runs in a sandbox: CSP `sandbox` without `allow-same-origin` gives the page an
 * opaque origin, so nothing on it (Swagger UI, a plugin, an injected script) can read the
 * dashboard's session token in this origin's sessionStorage, its localStorage or cookies, even
 * when the dashboard's own "API documentation" link opens it in the same tab. "Try it out" still
 * works: its requests are cross-origin (`Origin: null`), which the API's CORS allows by default
 * (docs/security.md). Added to helmet's policy (security-headers.ts), which keeps applying.
 */
const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads';

function sandboxed(_req: Request, res: Response, next: NextFunction): void {
  const policy = res.getHeader('Content-Security-Policy');
  res.setHeader('Content-Security-Policy', policy ? `${String(policy)};${SANDBOX}` : SANDBOX);
  next();
}

/** What `GET /` lists for a program: where everything is (relative links, like problem types). */
const INDEX = {
  name: 'School Search API',
  links: {
    dashboard: '/dashboard',
    docs: '/docs',
    openapi: '/openapi.json',
    login: '/v1/auth',
    search: '/v1/fetchSchoolSearch',
    health: '/health/ready',
  },
};

export function docsRoutes(contract: Contract): Router {
  const router = Router();
  // A browser (it asks for HTML first) is sent to the dashboard, which links the docs; a program
  // gets the index of links. Vary: a cache must not hand one the other's answer.
  router.get('/', (req, res) => {
    res.setHeader('Vary', 'Accept');
    if (req.accepts(['application/json', 'text/html']) === 'text/html') return res.redirect(302, '/dashboard');
    res.setHeader('Cache-Control', 'no-cache');
    res.json(INDEX);
  });
  for (const path of FAVICON_PATHS) router.get(path, favicon);
  const json = new Precompressed(JSON.stringify(contract));
  router.get('/openapi.json', (req, res) => {
    json.send(req, res.type('application/json').setHeader('Cache-Control', 'no-cache'));
  });
  // Swagger UI loads the contract from /openapi.json, and "Try it out" is on from the start. A
  // bearer token entered under "Authorize" lives as long as the page: persistAuthorization would
  // keep it in localStorage indefinitely, across tabs (and a sandboxed page has no storage).
  const ui = {
    swaggerOptions: {
      url: '/openapi.json',
      persistAuthorization: false,
      tryItOutEnabled: true,
      displayRequestDuration: true,
    },
    customSiteTitle: 'School Search API',
  };
  router.use('/docs', onlySwaggerUi, sandboxed, swaggerUi.serveFiles(undefined, ui), swaggerUi.setup(undefined, ui));
  const bySlug = new Map(Object.values(PROBLEMS).map((p) => [p.slug, p]));
  router.get('/problems/:slug', (req, res, next) => {
    const kind = bySlug.get(req.params.slug);
    if (!kind) return next();
    res
      .type('text/html')
      .send(
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>${kind.title}</title>` +
          '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' +
          `<h1>${kind.title} (${kind.status})</h1><p>${kind.advice.replace(/`([^`]+)`/g, '<code>$1</code>')}</p>` +
          `<p><a href="/docs">API documentation</a></p></html>`,
      );
  });
  return router;
}
