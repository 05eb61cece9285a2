// Accounts people make themselves: open sign-up confirmed by a link in an e-mail, and the
// operator's invitations. No HTTP in here. Neither operation tells whether an address has an
// account: each sends one e-mail to the address given and answers the same (docs/security.md).
//
// The link is the proof of the mailbox, so whoever uses it chooses the account's password then:
// a stranger who signs up with someone's address decides nothing about the account, and can
// neither keep its owner from signing up nor flood the address (link-sender.ts).
import { uuidV5 } from '../shared/ids.ts';
import { checkEmail, checkPassword } from './credentials.ts';
import type { AuthService } from './auth.service.ts';
import { EmailTakenError, InvalidCredentialsError, InvalidLinkError, SignUpClosedError } from '../shared/errors.ts';
import { LINK_LIFETIME_MS, linkDigest, looksLikeLink } from './link.ts';
import type { LinkSender } from './link-sender.ts';
import { alreadyRegisteredMail, confirmationMail, invitationMail } from './account-mails.ts';
import type { Clock } from '../shared/clock.ts';
import type {
  AccountLinks,
  IssuedToken,
  LinkPurpose,
  LinkRecord,
  LinkStore,
  PasswordHasher,
  SignUpMode,
  UserStore,
} from './accounts.ports.ts';

export interface SignUpOptions {
  readonly signUp: SignUpMode;
  readonly passwordReset: boolean;
}

const HOUR_MS = 3600_000;

/** Namespace of the ids of accounts made by links (a random v4 UUID, fixed forever). */
const ACCOUNT_NAMESPACE = '3f6b2c1e-8d4a-4e9b-a7c5-1d2e3f4a5b6c';

/**
 * The id of the account a link makes: derived from the link's (a UUID v5), so that a confirmation
 * that failed half-way (the account made, the link not yet used) recognises its own account when
 * it is sent again, instead of leaving the person with a link that can make nothing.
 */
export function accountIdOf(linkId: string): string {
  return uuidV5(linkId, ACCOUNT_NAMESPACE);
}

export class SignUpService {
  readonly #users: UserStore;
  readonly #links: LinkStore;
  readonly #hasher: PasswordHasher;
  readonly #clock: Clock;
  readonly #sender: LinkSender;
  readonly #auth: AuthService;
  readonly #settings: AccountLinks;

  constructor(deps: {
    users: UserStore;
    links: LinkStore;
    hasher: PasswordHasher;
    clock: Clock;
    sender: LinkSender;
    auth: AuthService;
    settings: AccountLinks;
  }) {
    this.#users = deps.users;
    this.#links = deps.links;
    this.#hasher = deps.hasher;
    this.#clock = deps.clock;
    this.#sender = deps.sender;
    this.#auth = deps.auth;
    this.#settings = deps.settings;
  }

  options(): SignUpOptions {
    return { signUp: this.#settings.mail ? this.#settings.signUp : 'off', passwordReset: this.#settings.mail };
  }

  /**
   * Open sign-up. An address without an account gets a confirmation link (the account is made,
   * with the password chosen then, when it is used); an address with one gets a note saying so.
   * The same work either way, so the answer and its time say nothing. `password`: what older
   * clients still send; only its length is checked (the contract keeps it, deprecated).
   */
  async signUp(email: string, password?: string): Promise<void> {
    if (this.options().signUp !== 'open') throw new SignUpClosedError('Sign-up is closed on this server.');
    const normalized = checkEmail(email);
    if (password !== undefined) checkPassword(password);
    const base = this.#settings.dashboardUrl();
    const existing = await this.#users.findByEmail(normalized);
    const hours = LINK_LIFETIME_MS.signup / HOUR_MS;
    // With an account, a decoy link stands for the confirmation link (it can make no account:
    // the address is taken), so that the reads and writes are the same on both paths.
    await this.#sender.send({
      purpose: 'signup',
      email: normalized,
      userId: null,
      url: `${base}#confirm/`,
      compose: (link) =>
        existing
          ? alreadyRegisteredMail(normalized, `${base}#signin`, `${base}#forgot`)
          : confirmationMail(normalized, link, hours),
    });
  }

  /**
   * Makes the account of a sign-up link with `password`, and signs it in. A link sent before
   * sign-up stopped asking for a password holds the hash of the one chosen then: that password
   * must be given again (whoever opens someone else's such link cannot confirm an account whose
   * password only they know).
   */
  async confirm(token: string, password: string): Promise<IssuedToken> {
    if (this.options().signUp !== 'open') throw new SignUpClosedError('Sign-up is closed on this server.');
    const link = await this.#live(token, 'signup');
    let passwordHash: string;
    if (link.passwordHash) {
      if (!(await this.#hasher.verify(link.passwordHash, password))) throw new InvalidCredentialsError();
      passwordHash = link.passwordHash;
    } else {
      checkPassword(password);
      passwordHash = await this.#hasher.hash(password);
    }
    return this.#complete(link, passwordHash, password);
  }

  /**
   * The operator's command: an invitation link to `email` (the pending one again, when there is
   * one). Refused when sign-up is off (the operator makes the account with `user create` then)
   * and for an address with an account.
   */
  async invite(email: string): Promise<{ email: string; expiresAt: Date }> {
    if (this.#settings.signUp === 'off') {
      throw new SignUpClosedError('SIGNUP is off: invitations are refused. Set SIGNUP=invite, or use `user create`.');
    }
    const normalized = checkEmail(email);
    if (await this.#users.findByEmail(normalized)) throw new EmailTakenError(normalized);
    const days = LINK_LIFETIME_MS.invite / (24 * HOUR_MS);
    const link = await this.#sender.send({
      purpose: 'invite',
      email: normalized,
      userId: null,
      url: `${this.#settings.dashboardUrl()}#invitation/`,
      compose: (ref) => invitationMail(normalized, ref, days),
    });
    return { email: normalized, expiresAt: link.expiresAt };
  }

  /** Makes the invited address's account with this password, and signs it in. */
  async acceptInvitation(token: string, password: string): Promise<IssuedToken> {
    if (this.#settings.signUp === 'off') throw new SignUpClosedError('Invitations are not accepted on this server.');
    checkPassword(password);
    const link = await this.#live(token, 'invite');
    return this.#complete(link, await this.#hasher.hash(password), password);
  }

  async #live(token: string, purpose: LinkPurpose): Promise<LinkRecord> {
    if (!looksLikeLink(token)) throw new InvalidLinkError();
    const link = await this.#links.findLive(linkDigest(token), purpose, this.#clock.now());
    if (!link) throw new InvalidLinkError();
    return link;
  }

  /**
   * The account first, then the link used: a failure in between leaves a live link and an
   * account of the link's own id, which the same request sent again finds (with its password)
   * and completes. An address that another account took voids the link; every other sign-up or
   * invitation link of the address is voided once the account exists.
   */
  async #complete(link: LinkRecord, passwordHash: string, password: string): Promise<IssuedToken> {
    const id = accountIdOf(link.id);
    const now = this.#clock.now();
    try {
      await this.#users.create({
        id,
        email: link.email,
        passwordHash,
        createdAt: now,
        passwordVersion: 0,
        keysFromVersion: 0,
      });
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
      const existing = await this.#users.findByEmail(link.email);
      if (existing?.id !== id) throw new InvalidLinkError();
      // Made by this link, on an earlier try that did not finish: the same person, if the same password.
      if (!(await this.#hasher.verify(existing.passwordHash, password))) throw new InvalidCredentialsError();
    }
    if (!(await this.#links.use(link.digest, link.purpose, now))) throw new InvalidLinkError();
    await this.#links.useAll(link.email, 'signup', now);
    await this.#links.useAll(link.email, 'invite', now);
    const user = await this.#users.findById(id);
    return this.#auth.issueSession({ id, passwordVersion: user?.passwordVersion ?? 0 });
  }
}
