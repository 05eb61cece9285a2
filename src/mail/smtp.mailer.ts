// The mail port over SMTP (nodemailer: docs/dependencies.md says why). One pooled transport per
// process; every wait is bounded, so that a mail server that does not answer makes the request
// a 503 within seconds (the message stays in the outbox) instead of holding it open.
import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer, OutgoingMail } from '../domain/mail/mail.ports.ts';

/** Connect, greeting and idle-socket limits (ms): well under the outbox's attempt hold (60 s). */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;
  readonly #from: string;
  /** The right-hand side of every Message-ID: the sender's domain (RFC 5322 §3.6.4). */
  readonly #domain: string;

  /** `url`: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (TLS from the start). */
  constructor(url: string, from: string) {
    // Two connections: mail is a few messages a minute, and a provider may cap connections.
    this.#transport = createTransport({ url, pool: true, maxConnections: 2, ...SMTP_TIMEOUTS });
    this.#from = from;
    this.#domain = /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'school-search.invalid';
  }

  /**
   * The Message-ID is the outbox entry's: the same at every attempt, so that the rare second copy
   * (a crash after the server took it) is one message to mail clients and servers that fold them.
   */
  async send(message: OutgoingMail): Promise<void> {
    await this.#transport.sendMail({
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      messageId: `<${message.id}@${this.#domain}>`,
    });
  }

  close(): void {
    this.#transport.close();
  }
}
