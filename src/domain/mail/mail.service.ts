// Mail that is never lost: every message goes into the outbox first, is tried at once, and when
// the mail system does not take it, stays there and is tried again with growing waits (by
// retryDue, which the composition root runs on a timer) until it goes out or its link expires.
//
// Delivery is at least once. Each message is sent once per claim: an attempt holds its entry for
// longer than the SMTP adapter can take, retries claim one entry at a time, and a process never
// runs two retry rounds at once. A second copy goes out only when a process stops (a crash, a
// kill) after the mail server took the message and before the outbox heard of it; it carries
// the same Message-ID, which mail clients use to fold the two.
//
// A message's link is put in only here, at each attempt (link.ts): the outbox holds a
// placeholder and the link's id, never the token.
import { randomUUID } from 'node:crypto';
import { MailUnavailableError } from '../shared/errors.ts';
import { type LinkSecrets, renderLink } from './link-token.ts';
import type { Clock } from '../shared/clock.ts';
import type { Mailer, MailMessage, MailOutbox, OutboxEntry } from './mail.ports.ts';

/**
 * How long an attempt holds its entry: no other instance (nor a later round of this one) tries
 * it meanwhile. Longer than the SMTP adapter can take with one message: its connection and
 * greeting limits and an idle limit per command (src/mail/smtp.mailer.ts).
 */
export const ATTEMPT_HOLD_MS = 300_000;
/** The wait after the first failure; it doubles with each one, up to MAX_RETRY_WAIT_MS. */
export const FIRST_RETRY_WAIT_MS = 30_000;
export const MAX_RETRY_WAIT_MS = 3600_000;
/** Entries tried per retryDue call, one claimed at a time: a backlog drains over several calls instead of in one burst. */
const RETRY_BATCH = 20;

export interface MailEvents {
  /** A retry delivered a message that had failed before. */
  retried?(entry: OutboxEntry): void;
  /** An attempt failed (at once or on retry); it will be tried again at entry.nextAttemptAt. */
  failed?(entry: OutboxEntry, error: unknown): void;
  /** A message was dropped undelivered: its link expired before any attempt succeeded, or its link's secret is gone. */
  discarded?(entry: OutboxEntry, why: 'expired' | 'unknown-secret'): void;
  /** A notice could not even be stored: it is lost (the change it tells of happened). */
  lost?(message: MailMessage, error: unknown): void;
}

export function retryWaitMs(attempts: number): number {
  return Math.min(MAX_RETRY_WAIT_MS, FIRST_RETRY_WAIT_MS * 2 ** Math.max(0, attempts - 1));
}

export class MailService {
  readonly #outbox: MailOutbox;
  readonly #mailer: Mailer;
  readonly #clock: Clock;
  readonly #secrets: LinkSecrets;
  readonly #events: MailEvents;
  /** A retry round of this process is under way: the timer's next tick does not start another. */
  #retrying = false;

  constructor(deps: { outbox: MailOutbox; mailer: Mailer; clock: Clock; secrets: LinkSecrets; events?: MailEvents }) {
    this.#outbox = deps.outbox;
    this.#mailer = deps.mailer;
    this.#clock = deps.clock;
    this.#secrets = deps.secrets;
    this.#events = deps.events ?? {};
  }

  /**
   * Stores the message, then hands it to the mail system. Resolves once it went out; throws
   * MailUnavailableError when it did not (it stays in the outbox and is retried), and the
   * store's error when it could not even be stored (nothing was promised then).
   */
  async send(message: MailMessage, discardAfter: Date): Promise<void> {
    const entry = this.#entry(message, discardAfter);
    await this.#outbox.enqueue(entry);
    if (!(await this.#attempt(entry))) throw new MailUnavailableError();
  }

  /**
   * send() for a message that reports something done (a notice): it is kept and retried like
   * any other, but neither its delivery nor its storing failing fails the caller (`lost` says
   * when it could not be stored).
   */
  async notify(message: MailMessage, discardAfter: Date): Promise<void> {
    const entry = this.#entry(message, discardAfter);
    try {
      await this.#outbox.enqueue(entry);
    } catch (error) {
      this.#events.lost?.(message, error);
      return;
    }
    await this.#attempt(entry).catch((error: unknown) => this.#events.failed?.(entry, error));
  }

  /**
   * Drops what expired, then tries the entries that are due, claiming each just before its
   * attempt; returns how many went out. A call while another of this process runs does nothing.
   */
  async retryDue(): Promise<number> {
    if (this.#retrying) return 0;
    this.#retrying = true;
    try {
      for (const dropped of await this.#outbox.discardExpired(this.#clock.now()))
        this.#events.discarded?.(dropped, 'expired');
      let sent = 0;
      for (let tried = 0; tried < RETRY_BATCH; tried++) {
        const now = this.#clock.now();
        const [entry] = await this.#outbox.claimDue(now, new Date(now.getTime() + ATTEMPT_HOLD_MS), 1);
        if (!entry) break;
        if (await this.#attempt(entry)) {
          sent++;
          this.#events.retried?.(entry);
        }
      }
      return sent;
    } finally {
      this.#retrying = false;
    }
  }

  #entry(message: MailMessage, discardAfter: Date): OutboxEntry {
    const now = this.#clock.now();
    return {
      ...message,
      id: randomUUID(),
      createdAt: now,
      discardAfter,
      attempts: 0,
      nextAttemptAt: new Date(now.getTime() + ATTEMPT_HOLD_MS),
      lastError: null,
    };
  }

  async #attempt(entry: OutboxEntry): Promise<boolean> {
    const text = entry.link ? renderLink(entry.text, entry.link, this.#secrets) : entry.text;
    if (text === undefined) {
      // Its link was derived with a secret this server no longer has (LINK_SECRET changed):
      // sent, the link would not work.
      await this.#outbox.drop(entry.id);
      this.#events.discarded?.(entry, 'unknown-secret');
      return false;
    }
    try {
      await this.#mailer.send({ id: entry.id, to: entry.to, subject: entry.subject, text });
    } catch (error) {
      const attempts = entry.attempts + 1;
      const next = new Date(this.#clock.now().getTime() + retryWaitMs(attempts));
      // Only the error's message: a driver's error object may carry the server's whole reply.
      const reason = error instanceof Error ? error.message.slice(0, 500) : 'unknown error';
      await this.#outbox.failed(entry.id, reason, next);
      this.#events.failed?.({ ...entry, attempts, nextAttemptAt: next, lastError: reason }, error);
      return false;
    }
    await this.#outbox.delivered(entry.id);
    return true;
  }
}
