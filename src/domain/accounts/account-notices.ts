// Mail that tells an account's owner what changed on it: a password changed or reset (with the
// account's API keys listed, and whether they were revoked), and every new API key. These carry
// no link, are kept in the outbox and retried like all mail, and never fail the change they
// report: it has happened.
import { keyCreatedMail, passwordChangedMail } from './account-mails.ts';
import type { MailService } from '../mail/mail.service.ts';
import type { TokenRecord } from './accounts.ports.ts';

/** How long a notice waits for the mail system before it is dropped: after a week it is news no more. */
const NOTICE_LIFETIME_MS = 7 * 24 * 3600 * 1000;

export interface PasswordChangeNotice {
  readonly how: 'change' | 'reset';
  readonly at: Date;
  /** The account's live API keys just before the change. */
  readonly keys: readonly TokenRecord[];
  readonly keysRevoked: boolean;
  /** The key that asked for the change (it keeps working), if a key did. */
  readonly keptKeyId: string | null;
}

export class AccountNotices {
  readonly #mail: MailService;
  readonly #dashboardUrl: () => string;

  constructor(deps: { mail: MailService; dashboardUrl: () => string }) {
    this.#mail = deps.mail;
    this.#dashboardUrl = deps.dashboardUrl;
  }

  passwordChanged(email: string, notice: PasswordChangeNotice): Promise<void> {
    const keys = notice.keys.map((k) => ({
      name: k.name ?? '',
      createdAt: k.createdAt,
      revoked: notice.keysRevoked && k.id !== notice.keptKeyId,
    }));
    return this.#notify(
      passwordChangedMail(email, { how: notice.how, at: notice.at, keys }, this.#dashboardUrl()),
      notice.at,
    );
  }

  keyCreated(email: string, key: TokenRecord): Promise<void> {
    const mail = keyCreatedMail(
      email,
      { name: key.name ?? '', createdAt: key.createdAt, expiresAt: key.expiresAt, hint: key.hint },
      this.#dashboardUrl(),
    );
    return this.#notify(mail, key.createdAt);
  }

  #notify(message: Parameters<MailService['notify']>[0], at: Date): Promise<void> {
    return this.#mail.notify(message, new Date(at.getTime() + NOTICE_LIFETIME_MS));
  }
}
