import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { PublishableScope, TokenKind, TokenRecord } from './accounts.ports.ts';

// Recognisable prefixes so secret scanners can find leaked tokens, and so that a person (and the
// API) tells a secret value from one meant for a page's source at a glance, as Stripe's sk_/pk_
// do; 32 random bytes = 256 bits either way.
export const TOKEN_PREFIX = 'ssk_';
export const PUBLISHABLE_PREFIX = 'spk_';
const TOKEN_SHAPE = /^s[sp]k_[A-Za-z0-9_-]{43}$/;

export function newTokenValue(prefix: string = TOKEN_PREFIX): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Whether a value is shaped as a publishable key's (only those are taken in a URL). */
export function looksPublishable(value: string): boolean {
  return value.startsWith(PUBLISHABLE_PREFIX) && TOKEN_SHAPE.test(value);
}

/**
 * Only this digest is stored: a copy of the database does not yield usable tokens. Every
 * authenticated request computes it: crypto.hash, one call, is cheaper than a Hash object
 * (docs/runs/performance.md, Run J).
 */
export function tokenDigest(value: string): string {
  return hash('sha256', value, 'hex');
}

export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** What a token list shows: the prefix and four characters, never enough to use it. */
export function tokenHint(value: string): string {
  return value.slice(0, TOKEN_PREFIX.length + 4);
}

/**
 * A new token of `userId`'s, living `lifetimeMs` from `now`, and its value (shown once, never
 * stored). `session`: the password version its holder proved and when (credentials.ts). With
 * `publishable`, a publishable key (`spk_`).
 */
export function mintToken(
  userId: string,
  kind: TokenKind,
  name: string | null,
  now: Date,
  lifetimeMs: number,
  session: { readonly passwordVersion: number; readonly authenticatedAt: Date },
  publishable?: PublishableScope,
): { record: TokenRecord; value: string } {
  const value = newTokenValue(publishable ? PUBLISHABLE_PREFIX : TOKEN_PREFIX);
  return {
    value,
    record: {
      id: randomUUID(),
      userId,
      kind,
      name,
      ...(publishable ? { publishable } : {}),
      digest: tokenDigest(value),
      hint: tokenHint(value),
      createdAt: now,
      expiresAt: new Date(now.getTime() + lifetimeMs),
      revokedAt: null,
      lastUsedAt: null,
      passwordVersion: session.passwordVersion,
      authenticatedAt: session.authenticatedAt,
    },
  };
}
