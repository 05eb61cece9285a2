// Security headers (helmet) on every response, documents and JSON alike.
//
// helmet's policy here is the same for every request (no directive is a function of the request),
// so it is run once, at start-up, against a response that records what it does, and each request
// gets those headers set in the same order: the same headers, without helmet's dozen middlewares
// and their closures on every request.
import helmet from 'helmet';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export const POLICY: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      // Swagger UI (/docs) loads its scripts and styles from this origin; nothing else runs.
      'frame-ancestors': ["'none'"],
      // The API may be served over plain http on a private network: do not upgrade
      // the docs' own requests to https.
      'upgrade-insecure-requests': null,
    },
  },
  frameguard: { action: 'deny' },
  // School images and JSON are meant to be used by pages on other origins.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  referrerPolicy: { policy: 'no-referrer' },
};

/** What helmet did to a response: headers set (name, value) and removed (name, undefined), in order. */
type Step = readonly [name: string, value: string | undefined];

export function securityHeaders(): RequestHandler {
  const steps = recorded(helmet(POLICY));
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of steps) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

/** Runs `middleware` once against a response that only records; throws if it did anything else. */
export function recorded(middleware: RequestHandler): Step[] {
  const steps: Step[] = [];
  let passed = false;
  const res = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`security headers: ${name} is not a fixed text`);
      steps.push([name, value]);
      return res;
    },
    removeHeader(name: string) {
      steps.push([name, undefined]);
    },
  };
  void middleware({} as Request, res as unknown as Response, (error?: unknown) => {
    if (error) throw error;
    passed = true;
  });
  if (!passed) throw new Error('security headers: helmet did not pass the request on at once');
  return steps;
}
