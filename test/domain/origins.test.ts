// The origins a publishable key works from (src/domain/accounts/origins.ts): what a pattern may
// be, how it is kept, which pages it admits, and which page a request names.
import { describe, expect, test } from 'vitest';
import {
  originAllowed,
  originMatches,
  parseOriginPattern,
  requestOrigin,
  stillAdmits,
} from '../../src/domain/accounts/origins.ts';

const kept = (text: string) => {
  const parsed = parseOriginPattern(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.reason}`);
  return parsed.pattern;
};

describe('parseOriginPattern', () => {
  test('when a pattern is an origin, then it is kept as a browser sends it: lower case, no default port', () => {
    expect(kept('https://WWW.Example.org')).toBe('https://www.example.org');
    expect(kept('https://www.example.org:443')).toBe('https://www.example.org');
    expect(kept('http://localhost:80')).toBe('http://localhost');
    expect(kept('http://localhost:5173')).toBe('http://localhost:5173');
    expect(kept('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(kept('https://[::1]:8443')).toBe('https://[::1]:8443');
    expect(kept('http://[0:0::1]')).toBe('http://[::1]');
    expect(kept('http://localhost:09500')).toBe('http://localhost:9500');
    expect(kept('https://www.example.org:0443')).toBe('https://www.example.org');
    expect(kept(' https://*.Example.org ')).toBe('https://*.example.org');
  });

  test.each([
    ['*'],
    ['null'],
    ['https://www.example.org/'],
    ['https://www.example.org/path'],
    ['https://www.example.org?q=1'],
    ['https://user@www.example.org'],
    ['ftp://www.example.org'],
    ['chrome-extension://abcdef'],
    ['www.example.org'],
    ['https://*'],
    ['https://*.org'],
    ['https://www.*.example.org'],
    ['https://*.[::1]'],
    ['http://[df]'],
    ['http://[4Ac]:029'],
    ['https://-bad-.example.org'],
    ['https://www.example.org:0'],
    ['https://www.example.org:70000'],
  ])('when the pattern is %s, then it is refused with a reason', (text) => {
    const parsed = parseOriginPattern(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(10);
  });
});

describe('originMatches', () => {
  test('when the pattern is exact, then only that origin matches, scheme and port included', () => {
    const p = kept('https://www.example.org');
    expect(originMatches(p, 'https://www.example.org')).toBe(true);
    expect(originMatches(p, 'http://www.example.org')).toBe(false);
    expect(originMatches(p, 'https://www.example.org:8443')).toBe(false);
    expect(originMatches(p, 'https://www.example.org.evil.example')).toBe(false);
    expect(originMatches(p, 'https://evilwww.example.org')).toBe(false);
  });

  test('when the pattern has a wildcard, then every subdomain at any depth matches, not the domain itself nor a look-alike', () => {
    const p = kept('https://*.example.org');
    expect(originMatches(p, 'https://a.example.org')).toBe(true);
    expect(originMatches(p, 'https://a.b.example.org')).toBe(true);
    expect(originMatches(p, 'https://example.org')).toBe(false);
    expect(originMatches(p, 'https://badexample.org')).toBe(false);
    expect(originMatches(p, 'https://a.example.org:8443')).toBe(false);
    expect(originMatches(p, 'http://a.example.org')).toBe(false);
    expect(originMatches(kept('https://*.example.org:8443'), 'https://a.example.org:8443')).toBe(true);
  });

  test('when no pattern matches, or the page is opaque, then it is not allowed', () => {
    expect(originAllowed([kept('https://a.example')], 'null')).toBe(false);
    expect(originAllowed([], 'https://a.example')).toBe(false);
    expect(originAllowed([kept('https://b.example'), kept('https://a.example')], 'https://a.example')).toBe(true);
  });
});

describe('requestOrigin', () => {
  test('when Origin is sent, then it is the page, normalised; else the origin of Referer; else none', () => {
    expect(requestOrigin('https://WWW.example.org:443', undefined)).toBe('https://www.example.org');
    expect(requestOrigin(undefined, 'https://www.example.org/signup?step=2#x')).toBe('https://www.example.org');
    expect(requestOrigin('https://a.example', 'https://b.example/page')).toBe('https://a.example');
    expect(requestOrigin(undefined, undefined)).toBeUndefined();
    expect(requestOrigin('', '')).toBeUndefined();
  });

  test('when the page is opaque or not a web page, then it is `null`, which no pattern allows', () => {
    expect(requestOrigin('null', undefined)).toBe('null');
    expect(requestOrigin('file://', undefined)).toBe('null');
    expect(requestOrigin(undefined, 'file:///home/me/page.html')).toBe('null');
    expect(requestOrigin('not a url', undefined)).toBe('null');
    expect(requestOrigin(undefined, 'not a url')).toBeUndefined();
  });
});

describe('stillAdmits', () => {
  test('when a record names an origin, then only a key still listing it admits it; a record without one needs a key without a scope', () => {
    const scope = { origins: [kept('https://a.example')] };
    expect(stillAdmits(scope, 'https://a.example')).toBe(true);
    expect(stillAdmits(scope, 'https://b.example')).toBe(false);
    expect(stillAdmits(scope, undefined)).toBe(false);
    expect(stillAdmits(null, undefined)).toBe(true);
    expect(stillAdmits(undefined, 'https://a.example')).toBe(false);
  });
});
