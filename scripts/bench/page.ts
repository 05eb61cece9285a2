// The searches of a web page's school picker with a publishable key (issue 40): what a sign-up
// form sends while a visitor types a school's name, one request per key stroke from the second
// letter on (`GET /v1/fetchSchoolSearch?query=…&key=spk_…`, a simple CORS request from the page's
// origin, in the codings a browser accepts), and now and then the CORS preflight of a page that
// sends the key in an Authorization header instead (answered from the browser's cache for 2 h:
// one in PAGE_PREFLIGHT_EVERY).
import type { CatalogRow } from './catalog-file.ts';
import type { LoadClass } from './load.ts';
import { one, type Rng } from './random.ts';

/** The page's origin, the one origin of the bench's publishable key. */
export const PAGE_ORIGIN = 'http://127.0.0.1:9999';
/** Searches per preflight. */
export const PAGE_PREFLIGHT_EVERY = 50;
/** The codings a browser accepts (Chrome sends "gzip, deflate, br, zstd": the same choice, br). */
export const BROWSER_ACCEPT_ENCODING = 'br, gzip';

/** Names typed per scenario, each typed from its second letter to its end (at most two words). */
const NAMES = 400;

/**
 * The picker's load classes: its typed prefixes of real names (`accept`: the Accept-Encoding sent;
 * undefined: none) and its preflights.
 */
export function pageClasses(real: readonly CatalogRow[], key: string, r: Rng, accept: string | undefined): LoadClass[] {
  const paths: string[] = [];
  for (let i = 0; i < NAMES; i++) {
    const typed = one(r, real).schoolname.split(/\s+/).slice(0, 2).join(' ').toLowerCase();
    for (let n = 2; n <= typed.length; n++) {
      const prefix = typed.slice(0, n);
      if (prefix.endsWith(' ')) continue;
      paths.push(`/v1/fetchSchoolSearch?query=${encodeURIComponent(prefix)}&key=${key}`);
    }
  }
  const headers = { origin: PAGE_ORIGIN, ...(accept === undefined ? {} : { 'accept-encoding': accept }) };
  return [
    { name: 'typed prefix (key in the query)', weight: PAGE_PREFLIGHT_EVERY, paths, headers },
    {
      name: 'CORS preflight (OPTIONS)',
      weight: 1,
      paths: ['/v1/fetchSchoolSearch'],
      method: 'OPTIONS',
      headers: {
        origin: PAGE_ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    },
  ];
}
