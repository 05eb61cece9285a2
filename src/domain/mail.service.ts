// Mail that is never lost: every message goes into the outbox first, is tried at once, and when
// the mail system does not take it, stays there and is tried again with growing waits (by
// retryDue, which the composition root runs on a timer) until it goes out or its link expires.
import { randomUUID } from 'node:crypto';
import { MailUnavailableError } from './errors.ts';
import type { Clock, Mailer, MailMessage, MailOutbox, OutboxEntry } from './ports.ts';

/** How long an attempt holds its entry: no other instance tries it meanwhile. Longer than the SMTP adapter's timeouts. */
export const ATTEMPT_HOLD_MS = 60_000;
/** The wait after the first failure; it doubles with each one, up to MAX_RETRY_WAIT_MS. */
export const FIRST_RETRY_WAIT_MS = 30_000;
export const MAX_RETRY_WAIT_MS = 3600_000;
/** Entries tried per retryDue call: a backlog drains over several calls instead of in one burst. */
const RETRY_BATCH = 20;

export interface MailEvents {
  /** A retry delivered a message that had failed before. */
  retried?(entry: OutboxEntry): void;
  /** An attempt failed (at once or on retry); it will be tried again at entry.nextAttemptAt. */
  failed?(entry: OutboxEntry, error: unknown): void;
  /** A message was dropped undelivered: its link expired before any attempt succeeded. */
  discarded?(entry: OutboxEntry): void;
}

export function retryWaitMs(attempts: number): number {
  return Math.min(MAX_RETRY_WAIT_MS, FIRST_RETRY_WAIT_MS * 2 ** Math.max(0, attempts - 1));
}

export class MailService {
  readonly #outbox: MailOutbox;
  readonly #mailer: Mailer;
  readonly #clock: Clock;
  readonly #events: MailEvents;

  constructor(deps: { outbox: MailOutbox; mailer: Mailer; clock: Clock; events?: MailEvents }) {
    this.#outbox = deps.outbox;
    this.#mailer = deps.mailer;
    this.#clock = deps.clock;
    this.#events = deps.events ?? {};
  }

  /**
   * Stores the message, then hands it to the mail system. Resolves once it went out; throws
   * MailUnavailableError when it did not (it stays in the outbox and is retried), and the
   * store's error when it could not even be stored (nothing was promised then).
   */
  async send(message: MailMessage, discardAfter: Date): Promise<void> {
    const now = this.#clock.now();
    const entry: OutboxEntry = {
      ...message,
      id: randomUUID(),
      createdAt: now,
      discardAfter,
      attempts: 0,
      nextAttemptAt: new Date(now.getTime() + ATTEMPT_HOLD_MS),
      lastError: null,
    };
    await this.#outbox.enqueue(entry);
    if (!(await this.#attempt(entry))) throw new MailUnavailableError();
  }

  /** Drops what expired, then tries the entries that are due; returns how many went out. */
  async retryDue(): Promise<number> {
    const now = this.#clock.now();
    for (const dropped of await this.#outbox.discardExpired(now)) this.#events.discarded?.(dropped);
    const due = await this.#outbox.claimDue(now, new Date(now.getTime() + ATTEMPT_HOLD_MS), RETRY_BATCH);
    let sent = 0;
    for (const entry of due) {
      if (await this.#attempt(entry)) {
        sent++;
        this.#events.retried?.(entry);
      }
    }
    return sent;
  }

  async #attempt(entry: OutboxEntry): Promise<boolean> {
    try {
      await this.#mailer.send({ to: entry.to, subject: entry.subject, text: entry.text });
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
