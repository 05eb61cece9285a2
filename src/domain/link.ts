// The tokens of links in e-mails (sign-up, reset, invitation): 256 bits like a bearer token,
// with a prefix of their own so that neither is ever taken for the other, stored only as a
// SHA-256 digest, used once, and expiring.
//
// A link's token is not random but derived from the link's id with a server-side secret
// (LINK_SECRET, never in the store): HMAC-SHA256(secret, id). The store holds the id and the
// digest; the outbox holds the message with a placeholder and the id; the token exists only in
// the e-mail handed to the mail system, computed at that moment. So no copy of the store — its
// file, WAL frames and free pages, a MongoDB oplog or backup — yields a working link, before
// delivery or after it; and a pending link can be mailed again (the same token) without ever
// having been kept.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { LinkPurpose, LinkRecord, MailLink } from './ports.ts';
import { tokenDigest } from './token.ts';

export const LINK_PREFIX = 'ssl_';
const LINK_SHAPE = /^ssl_[A-Za-z0-9_-]{43}$/;

/** Where a message's text takes its link (MailMessage.link), replaced when the message is sent. */
export const LINK_PLACEHOLDER = '{{link}}';

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

/** A secret links are derived with; `id` names it in the outbox without giving it away. */
export interface LinkSecret {
  readonly id: string;
  readonly key: Buffer;
}

/** The secrets of this server: `current` derives new links; `all` (current first) can still render mail already queued. */
export interface LinkSecrets {
  readonly current: LinkSecret;
  readonly all: readonly LinkSecret[];
}

/** The secrets of LINK_SECRET's values (the first derives new links). */
export function linkSecrets(values: readonly string[]): LinkSecrets {
  const all = values.map((value) => {
    const key = createHash('sha256').update(`school-search link secret\0${value}`).digest();
    return { key, id: createHash('sha256').update(key).digest('hex').slice(0, 16) };
  });
  if (all.length === 0) throw new Error('at least one link secret is needed');
  return { current: all[0]!, all };
}

export function looksLikeLink(value: string): boolean {
  return LINK_SHAPE.test(value);
}

export function linkDigest(value: string): string {
  return tokenDigest(value);
}

/** The token of link `id` under `secret`: the same every time it is asked for. */
export function linkToken(secret: LinkSecret, id: string): string {
  return LINK_PREFIX + createHmac('sha256', secret.key).update(`school-search link\0${id}`).digest('base64url');
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

/** The text of a message with its link put in, or undefined when its secret is not one of these. */
export function renderLink(text: string, link: MailLink, secrets: LinkSecrets): string | undefined {
  const secret = secrets.all.find((s) => s.id === link.secretId);
  return secret ? text.replaceAll(LINK_PLACEHOLDER, link.url + linkToken(secret, link.id)) : undefined;
}
