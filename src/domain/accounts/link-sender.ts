// Mails a link of one purpose to one address, the way every operation that sends one does:
// while a link of that purpose is pending for the address (live, with a quarter of its life
// left), the same link is mailed again rather than a new one minted, so that every such e-mail
// the address has works; and no link is mailed more than `mailsPerLink` times, so that nobody
// can flood an address. A request over that bound is answered as usual and sends nothing: the
// address has the link already, so a stranger's requests never keep its owner from it.
import { LINK_LIFETIME_MS, mailLink, mintLink, RESEND_WHILE_LEFT } from './link.ts';
import type { LinkSecrets } from '../mail/link-token.ts';
import type { MailService } from '../mail/mail.service.ts';
import type { Clock } from '../shared/clock.ts';
import type { LinkPurpose, LinkRecord, LinkStore } from './accounts.ports.ts';
import type { MailLink, MailMessage } from '../mail/mail.ports.ts';

export interface LinkRequest {
  readonly purpose: LinkPurpose;
  readonly email: string;
  /** The account a reset link is for; null for the others (and for a decoy, which names none). */
  readonly userId: string | null;
  /** Where the link points, up to its token: e.g. https://api.example.org/dashboard#reset/ */
  readonly url: string;
  /** The e-mail, with the link where it goes (a note without a link may ignore it). */
  compose(link: MailLink): MailMessage;
}

export class LinkSender {
  readonly #links: LinkStore;
  readonly #mail: MailService;
  readonly #clock: Clock;
  readonly #secrets: LinkSecrets;
  readonly #mailsPerLink: number;

  constructor(deps: {
    links: LinkStore;
    mail: MailService;
    clock: Clock;
    secrets: LinkSecrets;
    /** 0: no bound. */
    mailsPerLink: number;
  }) {
    this.#links = deps.links;
    this.#mail = deps.mail;
    this.#clock = deps.clock;
    this.#secrets = deps.secrets;
    this.#mailsPerLink = deps.mailsPerLink;
  }

  /** Mails the pending link, or a new one; the link mailed (or not mailed again, being at its bound). */
  async send(request: LinkRequest): Promise<LinkRecord> {
    const now = this.#clock.now();
    const left = LINK_LIFETIME_MS[request.purpose] * RESEND_WHILE_LEFT;
    const pending = await this.#links.findPending(request.email, request.purpose, new Date(now.getTime() + left));
    let link = pending;
    // The same kind of link only (a reset for this account; none holding a password chosen
    // before sign-up stopped asking for one), and made with a secret this server still has.
    let ref =
      link && link.userId === request.userId && link.passwordHash === null
        ? mailLink(link, request.url, this.#secrets)
        : undefined;
    if (!link || !ref) {
      link = mintLink(
        request.purpose,
        request.email,
        now,
        this.#secrets,
        request.userId ? { userId: request.userId } : {},
      );
      await this.#links.insert(link);
      ref = mailLink(link, request.url, this.#secrets)!;
    }
    if (!(await this.#links.noteMailed(link.id, this.#mailsPerLink || Number.MAX_SAFE_INTEGER))) return link;
    await this.#mail.send(request.compose(ref), link.expiresAt);
    return link;
  }
}
