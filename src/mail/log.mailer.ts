// The development outbox: with no SMTP_URL outside production, each e-mail is written to the log
// (whole, links included), so that `npm start` shows sign-up and reset mail without any setup.
// Never used in production: the links in it are as good as a password.
import type { Mailer, OutgoingMail } from '../domain/mail/mail.ports.ts';

export class LogMailer implements Mailer {
  readonly #write: (message: OutgoingMail) => void;

  constructor(write: (message: OutgoingMail) => void) {
    this.#write = write;
  }

  async send(message: OutgoingMail): Promise<void> {
    this.#write(message);
  }
}

/** No mail at all (production without SMTP_URL): sign-up and reset are off, so nothing calls it. */
export const NO_MAIL: Mailer = {
  async send() {
    throw new Error('this server sends no mail (SMTP_URL is not set)');
  },
};
