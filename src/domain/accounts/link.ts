// The links in e-mails (sign-up, reset, invitation): 256-bit tokens like a bearer token, with a
// prefix of their own so that neither is ever taken for the other, stored only as a SHA-256
// digest, used once, and expiring. A token is derived from the link's id when its e-mail is sent
// (src/domain/mail/link-token.ts), so a pending link can be mailed again (the same token)
// without ever having been kept.
import { randomUUID } from 'node:crypto';
import { LINK_PREFIX, type LinkSecrets, linkToken } from '../mail/link-token.ts';
import type { LinkPurpose, LinkRecord } from './accounts.ports.ts';
import type { MailLink } from '../mail/mail.ports.ts';
import { tokenDigest } from './token.ts';

const LINK_SHAPE = new RegExp(`^${LINK_PREFIX}[A-Za-z0-9_-]{43}$`);

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

/**
 * A pending link is mailed again, instead of a new one minted, while at least this share of its
 * lifetime is left: the person who asks again then has a link with time to use it.
 */
export const RESEND_WHILE_LEFT = 0.25;

export function looksLikeLink(value: string): boolean {
  return LINK_SHAPE.test(value);
}

export function linkDigest(value: string): string {
  return tokenDigest(value);
}

/** A new link of `purpose` for `email`, derived with the current secret (its token is in no record). */
export function mintLink(
  purpose: LinkPurpose,
  email: string,
  now: Date,
  secrets: LinkSecrets,
  extra: { userId?: string } = {},
): LinkRecord {
  const id = randomUUID();
  return {
    id,
    purpose,
    email,
    userId: extra.userId ?? null,
    passwordHash: null,
    digest: linkDigest(linkToken(secrets.current, id)),
    createdAt: now,
    expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]),
    usedAt: null,
    mailed: 0,
  };
}

/**
 * Where a link goes in a message: `url` followed by the token, derived when the message is sent
 * with the secret the link was made with (found by its digest: the record names none). Undefined
 * when that secret is not configured anymore: the link cannot be mailed again.
 */
export function mailLink(link: LinkRecord, url: string, secrets: LinkSecrets): MailLink | undefined {
  const secret = secrets.all.find((s) => linkDigest(linkToken(s, link.id)) === link.digest);
  return secret ? { id: link.id, url, secretId: secret.id } : undefined;
}
