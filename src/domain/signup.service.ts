// Accounts people make themselves: open sign-up confirmed by a link in an e-mail, and the
// operator's invitations. No HTTP in here. Neither operation tells whether an address has an
// account: each sends one e-mail to the address given and answers the same (docs/security.md).
import { randomUUID } from 'node:crypto';
import {
  acceptsEmail,
  type AuthService,
  type IssuedToken,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  normalizeEmail,
} from './auth.service.ts';
import {
  EmailTakenError,
  InvalidCredentialsError,
  InvalidInputError,
  InvalidLinkError,
  SignUpClosedError,
} from './errors.ts';
import { LINK_LIFETIME_MS, linkDigest, looksLikeLink, mintLink } from './link.ts';
import { alreadyRegisteredMail, confirmationMail, invitationMail } from './mail.messages.ts';
import type { MailService } from './mail.service.ts';
import type { Clock, LinkStore, PasswordHasher, UserStore } from './ports.ts';

/** `off`: accounts only from the operator's command line; `invite`: also by the operator's invitation links; `open`: also by anyone, confirmed by e-mail. */
export type SignUpMode = 'off' | 'invite' | 'open';
export const SIGNUP_MODES: readonly SignUpMode[] = ['off', 'invite', 'open'];

export interface AccountLinks {
  readonly signUp: SignUpMode;
  /** False when this server sends no mail (production without SMTP_URL): no reset, no sign-up. */
  readonly mail: boolean;
  /** The dashboard's address, e.g. https://api.example.org/dashboard: links in e-mails point into it. */
  readonly dashboardUrl: () => string;
}

export interface SignUpOptions {
  readonly signUp: SignUpMode;
  readonly passwordReset: boolean;
}

const HOUR_MS = 3600_000;

/** Counted in characters (code points), as the contract's minLength and maxLength count them. */
export function checkPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new InvalidInputError(`The password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`);
  }
}

function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!acceptsEmail(normalized)) throw new InvalidInputError(`"${email}" is not an e-mail address the API accepts.`);
  return normalized;
}

export class SignUpService {
  readonly #users: UserStore;
  readonly #links: LinkStore;
  readonly #hasher: PasswordHasher;
  readonly #clock: Clock;
  readonly #mail: MailService;
  readonly #auth: AuthService;
  readonly #settings: AccountLinks;

  constructor(deps: {
    users: UserStore;
    links: LinkStore;
    hasher: PasswordHasher;
    clock: Clock;
    mail: MailService;
    auth: AuthService;
    settings: AccountLinks;
  }) {
    this.#users = deps.users;
    this.#links = deps.links;
    this.#hasher = deps.hasher;
    this.#clock = deps.clock;
    this.#mail = deps.mail;
    this.#auth = deps.auth;
    this.#settings = deps.settings;
  }

  options(): SignUpOptions {
    return { signUp: this.#settings.mail ? this.#settings.signUp : 'off', passwordReset: this.#settings.mail };
  }

  /**
   * Open sign-up. An address without an account gets a confirmation link (the account is made
   * when it is used, with this password); an address with one gets a note saying so. The same
   * work either way (the password is hashed in both), so the answer and its time say nothing.
   */
  async signUp(email: string, password: string): Promise<void> {
    if (this.options().signUp !== 'open') throw new SignUpClosedError('Sign-up is closed on this server.');
    const normalized = checkEmail(email);
    checkPassword(password);
    const passwordHash = await this.#hasher.hash(password);
    const base = this.#settings.dashboardUrl();
    const existing = await this.#users.findByEmail(normalized);
    const now = this.#clock.now();
    if (existing) {
      // The same writes as the other path: a decoy link, whose token is thrown away at once and
      // which holds no password, so that nothing (not a database round trip) tells the paths apart.
      const decoy = mintLink('signup', normalized, now).record;
      await this.#links.insert(decoy);
      await this.#mail.send(alreadyRegisteredMail(normalized, `${base}#signin`, `${base}#forgot`), decoy.expiresAt);
      return;
    }
    const { record, token } = mintLink('signup', normalized, now, { passwordHash });
    await this.#links.insert(record);
    const hours = LINK_LIFETIME_MS.signup / HOUR_MS;
    await this.#mail.send(confirmationMail(normalized, `${base}#confirm/${token}`, hours), record.expiresAt);
  }

  /**
   * Makes the account of a sign-up link, and signs it in. The password chosen at sign-up must be
   * given again: whoever opens someone else's sign-up link (a stranger signed up with your
   * address, you open their mail) cannot confirm an account whose password only they know.
   */
  async confirm(token: string, password: string): Promise<IssuedToken> {
    if (this.options().signUp !== 'open') throw new SignUpClosedError('Sign-up is closed on this server.');
    if (!looksLikeLink(token)) throw new InvalidLinkError();
    const link = await this.#links.findLive(linkDigest(token), 'signup', this.#clock.now());
    if (!link?.passwordHash) throw new InvalidLinkError();
    if (!(await this.#hasher.verify(link.passwordHash, password))) throw new InvalidCredentialsError();
    const used = await this.#links.use(link.digest, 'signup', this.#clock.now());
    if (!used?.passwordHash) throw new InvalidLinkError();
    const userId = await this.#createAccount(used.email, used.passwordHash);
    return this.#auth.issueSession(userId);
  }

  /**
   * The operator's command: an invitation link to `email`. Refused when sign-up is off (the
   * operator makes the account with `user create` then) and for an address with an account.
   */
  async invite(email: string): Promise<{ email: string; expiresAt: Date }> {
    if (this.#settings.signUp === 'off') {
      throw new SignUpClosedError('SIGNUP is off: invitations are refused. Set SIGNUP=invite, or use `user create`.');
    }
    const normalized = checkEmail(email);
    if (await this.#users.findByEmail(normalized)) throw new EmailTakenError(normalized);
    const { record, token } = mintLink('invite', normalized, this.#clock.now());
    await this.#links.insert(record);
    const days = LINK_LIFETIME_MS.invite / (24 * HOUR_MS);
    await this.#mail.send(
      invitationMail(normalized, `${this.#settings.dashboardUrl()}#invitation/${token}`, days),
      record.expiresAt,
    );
    return { email: normalized, expiresAt: record.expiresAt };
  }

  /** Makes the invited address's account with this password, and signs it in. */
  async acceptInvitation(token: string, password: string): Promise<IssuedToken> {
    if (this.#settings.signUp === 'off') throw new SignUpClosedError('Invitations are not accepted on this server.');
    checkPassword(password);
    if (!looksLikeLink(token)) throw new InvalidLinkError();
    if (!(await this.#links.findLive(linkDigest(token), 'invite', this.#clock.now()))) throw new InvalidLinkError();
    const passwordHash = await this.#hasher.hash(password);
    const used = await this.#links.use(linkDigest(token), 'invite', this.#clock.now());
    if (!used) throw new InvalidLinkError();
    return this.#auth.issueSession(await this.#createAccount(used.email, passwordHash));
  }

  /** The account, and every other sign-up or invitation link of its address voided; an address taken meanwhile voids this link. */
  async #createAccount(email: string, passwordHash: string): Promise<string> {
    const id = randomUUID();
    try {
      await this.#users.create({ id, email, passwordHash, createdAt: this.#clock.now() });
    } catch (error) {
      if (error instanceof EmailTakenError) throw new InvalidLinkError();
      throw error;
    }
    const now = this.#clock.now();
    await this.#links.useAll(email, 'signup', now);
    await this.#links.useAll(email, 'invite', now);
    return id;
  }
}
