// The mail port over SMTP (nodemailer: docs/dependencies.md says why). One pooled transport per
// process; every wait is bounded, so that a mail server that does not answer makes the request
// a 503 within seconds (the message stays in the outbox) instead of holding it open.
import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from '../domain/ports.ts';

/** Connect, greeting and idle-socket limits (ms): well under the outbox's attempt hold (60 s). */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;
  readonly #from: string;

  /** `url`: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (TLS from the start). */
  constructor(url: string, from: string) {
    // Two connections: mail is a few messages a minute, and a provider may cap connections.
    this.#transport = createTransport({ url, pool: true, maxConnections: 2, ...SMTP_TIMEOUTS });
    this.#from = from;
  }

  async send(message: MailMessage): Promise<void> {
    await this.#transport.sendMail({ from: this.#from, to: message.to, subject: message.subject, text: message.text });
  }

  close(): void {
    this.#transport.close();
  }
}
