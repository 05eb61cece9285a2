import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { TokenKind, TokenRecord } from './accounts.ports.ts';

// Recognisable prefix so secret scanners can find leaked tokens; 32 random bytes = 256 bits.
export const TOKEN_PREFIX = 'ssk_';
const TOKEN_SHAPE = /^ssk_[A-Za-z0-9_-]{43}$/;

export function newTokenValue(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
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
 * stored). `session`: the password version its holder proved and when (credentials.ts).
 */
export function mintToken(
  userId: string,
  kind: TokenKind,
  name: string | null,
  now: Date,
  lifetimeMs: number,
  session: { readonly passwordVersion: number; readonly authenticatedAt: Date },
): { record: TokenRecord; value: string } {
  const value = newTokenValue();
  return {
    value,
    record: {
      id: randomUUID(),
      userId,
      kind,
      name,
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
