// "Forgot password": a single-use, expiring link by e-mail, and the new password it sets. Using
// it ends every session of the account (and, when asked, revokes every API key), as a password
// change does for the others, and mails the owner what it did.
import { checkEmail, checkPassword } from './credentials.ts';
import type { AccountNotices } from './account-notices.ts';
import { InvalidLinkError, PasswordResetOffError } from '../shared/errors.ts';
import { DEAD_LINK_RETENTION_MS, LINK_LIFETIME_MS, linkDigest, looksLikeLink } from './link.ts';
import type { LinkSender } from './link-sender.ts';
import { noAccountMail, resetMail } from './account-mails.ts';
import type { Clock } from '../shared/clock.ts';
import type { LinkStore, PasswordHasher, TokenStore, UserStore } from './accounts.ports.ts';
import type { AccountLinks } from './accounts.ports.ts';

export class PasswordResetService {
  readonly #users: UserStore;
  readonly #tokens: TokenStore;
  readonly #links: LinkStore;
  readonly #hasher: PasswordHasher;
  readonly #clock: Clock;
  readonly #sender: LinkSender;
  readonly #notices: AccountNotices;
  readonly #settings: AccountLinks;

  constructor(deps: {
    users: UserStore;
    tokens: TokenStore;
    links: LinkStore;
    hasher: PasswordHasher;
    clock: Clock;
    sender: LinkSender;
    notices: AccountNotices;
    settings: AccountLinks;
  }) {
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#links = deps.links;
    this.#hasher = deps.hasher;
    this.#clock = deps.clock;
    this.#sender = deps.sender;
    this.#notices = deps.notices;
    this.#settings = deps.settings;
  }

  /**
   * Mails a reset link to an address with an account, and to one without a note saying there is
   * none: one e-mail and the same answer either way, so the answer says nothing about the
   * address. A pending link is mailed again rather than a new one (link-sender.ts).
   */
  async request(email: string): Promise<void> {
    if (!this.#settings.mail) throw new PasswordResetOffError();
    const normalized = checkEmail(email);
    // Housekeeping on a path that waits for the mail system anyway.
    await this.#links.purgeDead(new Date(this.#clock.now().getTime() - DEAD_LINK_RETENTION_MS));
    const user = await this.#users.findByEmail(normalized);
    const base = this.#settings.dashboardUrl();
    // The same reads and writes on both paths: a decoy link (which names no account, so that
    // it resets nothing) stands for the reset link, so that nothing tells the paths apart.
    const signUp = this.#settings.signUp === 'open' ? `${base}#signup` : null;
    const minutes = LINK_LIFETIME_MS.reset / 60_000;
    await this.#sender.send({
      purpose: 'reset',
      email: normalized,
      userId: user?.id ?? null,
      url: `${base}#reset/`,
      compose: (link) => (user ? resetMail(normalized, link, minutes) : noAccountMail(normalized, signUp)),
    });
  }

  /**
   * Sets the new password; every session of the account (every API key too, with `revokeKeys`)
   * and every other reset link stop working. A failure half-way gives the link back, so that
   * the person can send the same request again.
   */
  async reset(token: string, newPassword: string, revokeKeys = false): Promise<void> {
    checkPassword(newPassword);
    if (!looksLikeLink(token)) throw new InvalidLinkError();
    const digest = linkDigest(token);
    const live = await this.#links.findLive(digest, 'reset', this.#clock.now());
    if (!live?.userId) throw new InvalidLinkError();
    const user = await this.#users.findById(live.userId);
    if (!user) throw new InvalidLinkError();
    const hash = await this.#hasher.hash(newPassword);
    const now = this.#clock.now();
    const keys = (await this.#tokens.listLive(user.id, now)).filter((t) => t.kind === 'key');
    const link = await this.#links.use(digest, 'reset', now);
    if (!link?.userId) throw new InvalidLinkError();
    try {
      // No token is kept: whoever held one may be who took the account.
      await this.#users.setPassword({ userId: user.id, passwordHash: hash, revokeKeys, keepTokenId: null, now });
    } catch (error) {
      await this.#links.release(link.id, now).catch(() => false);
      throw error;
    }
    await this.#links.useAll(link.email, 'reset', now);
    await this.#notices.passwordChanged(user.email, {
      how: 'reset',
      at: now,
      keys,
      keysRevoked: revokeKeys,
      keptKeyId: null,
    });
  }
}
