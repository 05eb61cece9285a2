// Mail's ports and entities: the outbox every message waits in, and the mail system it goes to.

/**
 * An e-mail as the domain writes it. With `link`, the text holds LINK_PLACEHOLDER (link.ts) where
 * the link goes: the link's token is derived from its id with a server-side secret only when
 * the message is sent, so that neither the outbox nor any copy of the store ever holds it.
 */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly link?: MailLink;
}

/** Where a message's link goes: `url` + the token derived from link `id` with secret `secretId`. */
export interface MailLink {
  readonly id: string;
  readonly url: string;
  readonly secretId: string;
}

/** A message as the mail system gets it: whole, with the id its Message-ID is made of (the same at every attempt). */
export interface OutgoingMail {
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** A message in the outbox: kept until delivered, retried with growing waits, dropped at `discardAfter`. */
export interface OutboxEntry extends MailMessage {
  readonly id: string;
  readonly createdAt: Date;
  /** After this the message is useless (its link expired): it is dropped, not sent. */
  readonly discardAfter: Date;
  /** Delivery attempts made (and failed) so far. */
  readonly attempts: number;
  /** When the next attempt is due; an attempt under way holds the entry until then (a lease). */
  readonly nextAttemptAt: Date;
  readonly lastError: string | null;
}

export interface MailOutbox {
  /** Stores the message, held by the caller (who tries it at once) until `heldUntil`. */
  enqueue(entry: OutboxEntry): Promise<void>;
  /**
   * Up to `limit` entries due at `now` (nextAttemptAt <= now), oldest due first, each held for
   * whoever claimed it until `heldUntil`: another claim before then does not get it.
   */
  claimDue(now: Date, heldUntil: Date, limit: number): Promise<OutboxEntry[]>;
  /** The message went out: it is deleted. */
  delivered(id: string): Promise<void>;
  /** The message can never go out (its link's secret is not configured anymore): it is deleted. */
  drop(id: string): Promise<void>;
  /** An attempt failed: counted, and the entry is due again at `nextAttemptAt`. */
  failed(id: string, error: string, nextAttemptAt: Date): Promise<void>;
  /** Deletes entries whose discardAfter is before `now` (their links are dead); returns them, for the log. */
  discardExpired(now: Date): Promise<OutboxEntry[]>;
}

/** The mail port: hands one message to the mail system (SMTP, or the log in development). Throws when it cannot. */
export interface Mailer {
  send(message: OutgoingMail): Promise<void>;
  /** Lets go of what the mailer holds open (an SMTP pool), so that a command can exit. */
  close?(): void;
}
