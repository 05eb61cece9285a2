import type { MailOutbox, OutboxEntry } from '../../../src/domain/mail/mail.ports.ts';

/** The outbox in a Map; the same rules as src/stores/sqlite/outbox.store.ts. */
export class MemoryMailOutbox implements MailOutbox {
  readonly entries = new Map<string, OutboxEntry>();

  async enqueue(entry: OutboxEntry): Promise<void> {
    this.entries.set(entry.id, { ...entry });
  }

  async claimDue(now: Date, heldUntil: Date, limit: number): Promise<OutboxEntry[]> {
    const due = [...this.entries.values()]
      .filter((e) => e.nextAttemptAt <= now)
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit)
      .map((e) => ({ ...e, nextAttemptAt: heldUntil }));
    for (const e of due) this.entries.set(e.id, e);
    return due.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  async delivered(id: string): Promise<void> {
    this.entries.delete(id);
  }

  async drop(id: string): Promise<void> {
    this.entries.delete(id);
  }

  async failed(id: string, error: string, nextAttemptAt: Date): Promise<void> {
    const e = this.entries.get(id);
    if (e) this.entries.set(id, { ...e, attempts: e.attempts + 1, lastError: error, nextAttemptAt });
  }

  async discardExpired(now: Date): Promise<OutboxEntry[]> {
    const expired = [...this.entries.values()].filter((e) => e.discardAfter < now);
    for (const e of expired) this.entries.delete(e.id);
    return expired;
  }
}
