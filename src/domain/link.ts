// The tokens of links in e-mails (sign-up, reset, invitation): 256 random bits like a bearer
// token, with a prefix of their own so that neither is ever taken for the other, stored only as
// a SHA-256 digest, used once, and expiring.
import { randomBytes, randomUUID } from 'node:crypto';
import type { LinkPurpose, LinkRecord } from './ports.ts';
import { tokenDigest } from './token.ts';

export const LINK_PREFIX = 'ssl_';
const LINK_SHAPE = /^ssl_[A-Za-z0-9_-]{43}$/;

/**
 * How long each kind of link works. A reset link grants the account, so it is short; a
 * confirmation waits for someone to open their mail today; an invitation for a colleague back
 * from a week away. Stated in docs/decisions/0020-sign-up-reset-invitations.md.
 */
export const LINK_LIFETIME_MS: Readonly<Record<LinkPurpose, number>> = {
  reset: 3600 * 1000,
  signup: 24 * 3600 * 1000,
  invite: 7 * 24 * 3600 * 1000,
};

/** How long a used or expired link is kept (then purged): long enough to tell "used" in a support case, no longer. */
export const DEAD_LINK_RETENTION_MS = 24 * 3600 * 1000;

export function looksLikeLink(value: string): boolean {
  return LINK_SHAPE.test(value);
}

export function linkDigest(value: string): string {
  return tokenDigest(value);
}

/** A new link of `purpose` for `email`, and its token (in the e-mail only, never stored). */
export function mintLink(
  purpose: LinkPurpose,
  email: string,
  now: Date,
  extra: { userId?: string; passwordHash?: string } = {},
): { record: LinkRecord; token: string } {
  const token = LINK_PREFIX + randomBytes(32).toString('base64url');
  return {
    token,
    record: {
      id: randomUUID(),
      purpose,
      email,
      userId: extra.userId ?? null,
      passwordHash: extra.passwordHash ?? null,
      digest: linkDigest(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]),
      usedAt: null,
    },
  };
}
