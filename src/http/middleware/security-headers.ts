// Security headers (helmet) on every response, documents and JSON alike.
import helmet from 'helmet';
import type { RequestHandler } from 'express';

export function securityHeaders(): RequestHandler {
  return helmet({
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
  });
}
