// The web origins a publishable key works from, and which page a request came from. A pattern is
// an origin as a browser sends it in `Origin` (RFC 6454: scheme, host, port; no path), or
// `scheme://*.domain` for every subdomain of a domain at any depth. Patterns are kept normalised
// (lower case, the scheme's default port dropped), so that matching is a comparison of strings
// and a list shows each origin once, as the browser will send it.
//
// A bare `*`, a path, a query, user information, a scheme other than http(s) or a wildcard
// anywhere but the first label are refused: a key that works from every page is a secret key
// with extra steps, and anything else would never equal what a browser sends.

/** Origins one key may list: a page's own few hosts, not a directory of sites. */
export const MAX_ORIGINS = 20;

export type OriginPattern = string;

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const SHAPE = /^(https?):\/\/(\*\.)?(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/;

/** The pattern as kept (normalised), or why `text` is not one. */
export function parseOriginPattern(text: string): { ok: true; pattern: OriginPattern } | { ok: false; reason: string } {
  const lower = text.trim().toLowerCase();
  if (lower === '*' || lower === 'null') return { ok: false, reason: 'must name the origin, not every page (*)' };
  const match = SHAPE.exec(lower);
  if (!match) {
    return {
      ok: false,
      reason: 'must be scheme://host[:port] with http or https, and no path, query or trailing slash',
    };
  }
  const [, scheme, wildcard, host, port] = match as unknown as [string, string, string | undefined, string, string?];
  if (!host.startsWith('[')) {
    if (host.length > 253 || !host.split('.').every((label) => LABEL.test(label)))
      return { ok: false, reason: 'must have a host name of letters, digits and hyphens between dots' };
    if (wildcard && !host.includes('.') && host !== 'localhost')
      return { ok: false, reason: 'must put the wildcard before a domain: https://*.example.org' };
  } else if (wildcard) return { ok: false, reason: 'cannot put a wildcard before an IP address' };
  else {
    // As the browser will send it (`[0:0::1]` is `[::1]`); brackets around anything but an IPv6
    // address name no host at all.
    const canonical = ipv6Host(host);
    if (canonical === undefined) return { ok: false, reason: 'must have an IPv6 address between the brackets' };
    return kept(scheme, '', canonical, port);
  }
  return kept(scheme, wildcard ?? '', host, port);
}

function kept(
  scheme: string,
  wildcard: string,
  host: string,
  port: string | undefined,
): { ok: true; pattern: OriginPattern } | { ok: false; reason: string } {
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535))
    return { ok: false, reason: 'must have a port from 1 to 65535' };
  const suffix = port === undefined || Number(port) === Number(DEFAULT_PORTS[`${scheme}:`]) ? '' : `:${Number(port)}`;
  return { ok: true, pattern: `${scheme}://${wildcard}${host}${suffix}` };
}

/** `[…]` as WHATWG URL serialises it, or undefined when it is no IPv6 address. */
function ipv6Host(bracketed: string): string | undefined {
  try {
    return new URL(`http://${bracketed}/`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether `origin` (as a browser sends it, or as requestOrigin made it) is one `pattern` allows. */
export function originMatches(pattern: OriginPattern, origin: string): boolean {
  const star = pattern.indexOf('://*.');
  if (star < 0) return pattern === origin;
  // https://*.example.org:8443 allows https://a.b.example.org:8443, not https://example.org.
  const scheme = pattern.slice(0, star + 3);
  const suffix = pattern.slice(star + 4);
  if (!origin.startsWith(scheme)) return false;
  const rest = origin.slice(scheme.length);
  return rest.length > suffix.length && rest.endsWith(suffix) && !rest.slice(0, -suffix.length).includes(':');
}

export function originAllowed(patterns: readonly OriginPattern[], origin: string): boolean {
  return patterns.some((pattern) => originMatches(pattern, origin));
}

/**
 * Whether a record made through a page `origin` (undefined: none) may still commit with the key
 * as it is now: a record of a publishable key's request names an origin the key still lists, so
 * that an origin taken off a key is refused from then on, on every instance, even by one that
 * let the request in with the key as it remembered it (RequestLog.append's madeWith).
 */
export function stillAdmits(
  publishable: { readonly origins: readonly OriginPattern[] } | null | undefined,
  origin: string | undefined,
): boolean {
  if (!publishable) return origin === undefined;
  return origin !== undefined && originAllowed(publishable.origins, origin);
}

/**
 * The page a request came from: its `Origin` header, or the origin of its `Referer` when a
 * browser sent no `Origin` (an `<img>`, a same-origin GET), normalised as patterns are; undefined
 * when it names none (a program, `Referrer-Policy: no-referrer`). An opaque origin (`null`: a
 * sandboxed frame, a file) is kept as `null`, which no pattern allows.
 */
export function requestOrigin(origin: string | undefined, referer: string | undefined): string | undefined {
  if (origin !== undefined && origin !== '') return normalisedOrigin(origin) ?? 'null';
  if (referer === undefined || referer === '') return undefined;
  return normalisedOrigin(referer);
}

function normalisedOrigin(text: string): string | undefined {
  if (text === 'null') return 'null';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'null';
  // URL has already lower-cased the host and dropped the scheme's default port.
  return `${url.protocol}//${url.host}`;
}
