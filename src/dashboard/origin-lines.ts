// A publishable key's origins as a person types them: one a line. Each line is checked against the
// contract's OriginPattern (the generated schema, the check the server's validator makes first),
// worded as the server words the same refusal (src/domain/accounts/origins.ts), so that a
// trailing slash reads as a sentence and not as the pattern. What the server refuses beyond the
// pattern (a wildcard before a bare top-level domain, a port above 65535) comes back as its 400,
// whose message the form shows as it is.
import { zOriginPattern } from '../../generated/zod.gen.ts';

/** Origins one key may list (the contract's maxItems). */
export const MAX_ORIGINS = 20;

export type OriginLines = { readonly origins: string[] } | { readonly problem: string };

export function originLines(text: string): OriginLines {
  const origins = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (origins.length < 1 || origins.length > MAX_ORIGINS)
    return { problem: `A publishable key lists 1 to ${MAX_ORIGINS} origins.` };
  for (const origin of origins) {
    if (origin === '*' || origin.toLowerCase() === 'null')
      return { problem: `The origin ${JSON.stringify(origin)} must name the origin, not every page (*).` };
    if (!zOriginPattern.safeParse(origin).success)
      return {
        problem: `The origin ${JSON.stringify(origin)} must be scheme://host[:port] with http or https, and no path, query or trailing slash.`,
      };
  }
  return { origins };
}

/** Whether `pattern` (as the server keeps it) lets `origin` in: exact, or a subdomain of a wildcard. */
export function originAllows(pattern: string, origin: string): boolean {
  const star = pattern.indexOf('://*.');
  if (star < 0) return pattern === origin;
  const scheme = pattern.slice(0, star + 3);
  const suffix = pattern.slice(star + 4);
  const rest = origin.slice(scheme.length);
  return origin.startsWith(scheme) && rest.length > suffix.length && rest.endsWith(suffix);
}
