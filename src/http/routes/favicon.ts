// The site's icon: every page a browser opens asks for one (`/favicon.ico` unless the page names
// another), and a 404 problem for each was noise in every page's console. One small SVG (a
// school's roof and door, in the dashboard's accent colour), served at both names.
import type { Request, Response } from 'express';

const ICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect width="32" height="32" rx="6" fill="#1f4e8c"/>' +
    '<path d="M16 5 4 12h24z" fill="#fff"/>' +
    '<rect x="7" y="13" width="18" height="13" fill="#fff"/>' +
    '<rect x="14" y="18" width="4" height="8" fill="#1f4e8c"/>' +
    '</svg>',
);

export const FAVICON_PATHS = ['/favicon.ico', '/favicon.svg'] as const;

export function favicon(_req: Request, res: Response): void {
  res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400').send(ICON);
}
