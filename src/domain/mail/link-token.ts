// The tokens of links in e-mails, as the mail system gets them: derived from the link's id with a
// server-side secret (LINK_SECRET, never in the store), HMAC-SHA256(secret, id), and put into the
// message's text only when it is handed to the mail system. The store holds the link's id and the
// digest of its token (src/domain/accounts/link.ts); the outbox the message with a placeholder and
// the id. So no copy of the store — its file, WAL frames and free pages, a MongoDB oplog or
// backup — yields a working link, before delivery or after it.
import { createHash, createHmac } from 'node:crypto';
import type { MailLink } from './mail.ports.ts';

export const LINK_PREFIX = 'ssl_';

/** Where a message's text takes its link (MailMessage.link), replaced when the message is sent. */
export const LINK_PLACEHOLDER = '{{link}}';

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

/** The token of link `id` under `secret`: the same every time it is asked for. */
export function linkToken(secret: LinkSecret, id: string): string {
  return LINK_PREFIX + createHmac('sha256', secret.key).update(`school-search link\0${id}`).digest('base64url');
}

/** The text of a message with its link put in, or undefined when its secret is not one of these. */
export function renderLink(text: string, link: MailLink, secrets: LinkSecrets): string | undefined {
  const secret = secrets.all.find((s) => s.id === link.secretId);
  return secret ? text.replaceAll(LINK_PLACEHOLDER, link.url + linkToken(secret, link.id)) : undefined;
}
