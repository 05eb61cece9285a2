// GET /dashboard: the users' dashboard (src/dashboard/), outside the contract's operations like
// /docs. The page runs only its own script, talks only to this origin, and its Trusted Types
// policy refuses every HTML-string sink: whatever the API returns can never become script.
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { DashboardAssets } from './dashboard-assets.ts';

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The try-it panel's frame (/dashboard/picker-frame), and nothing else.
  "frame-src 'self'",
  "base-uri 'none'",
  // Forms are sent by the script (fetch); a form that somehow submitted natively goes nowhere,
  // so a password can never end up in a URL.
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/**
 * The try-it frame runs the school picker as a customer's page would: its own script, and the
 * picker module from this origin. It is same-origin with the dashboard (it shares the tab's
 * sessionStorage), so it keeps the dashboard's rules (own scripts only, no HTML sinks); styles
 * may be inline, which a custom element's shadow root commonly carries and which run no script.
 * Only the dashboard may frame it.
 */
export const PICKER_FRAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

export function dashboardRoutes(assets: () => Promise<DashboardAssets>): Router {
  const router = Router();
  const page = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { page } = await assets();
      res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
      // The page names its files by content hash: it is revalidated, they never need to be.
      res.setHeader('Cache-Control', 'no-cache');
      page.send(req, res.type('text/html; charset=utf-8'));
    } catch (error) {
      next(error);
    }
  };
  router.get('/dashboard', page);
  router.get('/dashboard/', page);
  router.get('/dashboard/picker-frame', async (req, res, next) => {
    try {
      const { frame } = await assets();
      res.setHeader('Content-Security-Policy', PICKER_FRAME_CSP);
      res.setHeader('X-Frame-Options', 'SAMEORIGIN');
      // A publishable key is admitted by the page's origin: the picker's requests to this origin
      // are same-origin GETs, which carry no Origin header, so they must carry a Referer (the
      // dashboard itself sends none). Same-origin only: no other site learns the frame's address.
      res.setHeader('Referrer-Policy', 'same-origin');
      res.setHeader('Cache-Control', 'no-cache');
      frame.send(req, res.type('text/html; charset=utf-8'));
    } catch (error) {
      next(error);
    }
  });
  router.get('/dashboard/:file', async (req, res, next) => {
    try {
      const file = (await assets()).files.get(req.params.file);
      if (!file) return next();
      res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      file.body.send(req, res.type(file.contentType));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
