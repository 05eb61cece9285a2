// "Forgot password": a single-use, expiring link by e-mail, and the new password it sets. Using
// it revokes every session and API key of the account, as a password change does for the others.
import { normalizeEmail, acceptsEmail } from './auth.service.ts';
import { InvalidInputError, InvalidLinkError, PasswordResetOffError } from './errors.ts';
import { DEAD_LINK_RETENTION_MS, LINK_LIFETIME_MS, linkDigest, looksLikeLink, mintLink } from './link.ts';
import { noAccountMail, resetMail } from './mail.messages.ts';
import type { MailService } from './mail.service.ts';
import type { Clock, LinkStore, PasswordHasher, TokenStore, UserStore } from './ports.ts';
import { type AccountLinks, checkPassword } from './signup.service.ts';

export class PasswordResetService {
  readonly #users: UserStore;
  readonly #tokens: TokenStore;
  readonly #links: LinkStore;
  readonly #hasher: PasswordHasher;
  readonly #clock: Clock;
  readonly #mail: MailService;
  readonly #settings: AccountLinks;

  constructor(deps: {
    users: UserStore;
    tokens: TokenStore;
    links: LinkStore;
    hasher: PasswordHasher;
    clock: Clock;
    mail: MailService;
    settings: AccountLinks;
  }) {
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#links = deps.links;
    this.#hasher = deps.hasher;
    this.#clock = deps.clock;
    this.#mail = deps.mail;
    this.#settings = deps.settings;
  }

  /**
   * Mails a reset link to an address with an account, and to one without a note saying there is
   * none: one e-mail and the same answer either way, so the answer says nothing about the address.
   */
  async request(email: string): Promise<void> {
    if (!this.#settings.mail) throw new PasswordResetOffError();
    const normalized = normalizeEmail(email);
    if (!acceptsEmail(normalized)) throw new InvalidInputError(`"${email}" is not an e-mail address the API accepts.`);
    const now = this.#clock.now();
    // Housekeeping on a path that waits for the mail system anyway.
    await this.#links.purgeDead(new Date(now.getTime() - DEAD_LINK_RETENTION_MS));
    const user = await this.#users.findByEmail(normalized);
    const base = this.#settings.dashboardUrl();
    if (!user) {
      // The same writes as the other path: a decoy link, whose token is thrown away at once and
      // which names no account (a reset needs one), so that nothing tells the paths apart.
      const decoy = mintLink('reset', normalized, now).record;
      await this.#links.insert(decoy);
      const signUp = this.#settings.signUp === 'open' ? `${base}#signup` : null;
      await this.#mail.send(noAccountMail(normalized, signUp), decoy.expiresAt);
      return;
    }
    const { record, token } = mintLink('reset', normalized, now, { userId: user.id });
    await this.#links.insert(record);
    await this.#mail.send(
      resetMail(normalized, `${base}#reset/${token}`, LINK_LIFETIME_MS.reset / 60_000),
      record.expiresAt,
    );
  }

  /** Sets the new password; every token of the account (sessions and keys) and every other reset link stop working. */
  async reset(token: string, newPassword: string): Promise<void> {
    checkPassword(newPassword);
    if (!looksLikeLink(token)) throw new InvalidLinkError();
    const digest = linkDigest(token);
    if (!(await this.#links.findLive(digest, 'reset', this.#clock.now()))) throw new InvalidLinkError();
    const hash = await this.#hasher.hash(newPassword);
    const link = await this.#links.use(digest, 'reset', this.#clock.now());
    if (!link?.userId) throw new InvalidLinkError();
    await this.#users.setPasswordHash(link.userId, hash);
    const now = this.#clock.now();
    // No token is kept (the empty id matches none): whoever held one may be who took the account.
    await this.#tokens.revokeAllExcept(link.userId, '', now);
    await this.#links.useAll(link.email, 'reset', now);
  }
}
