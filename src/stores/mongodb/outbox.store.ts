import type { Collection } from 'mongodb';
import type { MailOutbox, OutboxEntry } from '../../domain/mail/mail.ports.ts';
import type { OutboxDocument } from './documents.ts';
import { guarded } from '../../mongodb-shared/errors.ts';

/** Expired entries dropped per discardExpired call. */
const DISCARD_BATCH = 100;

export class MongoMailOutbox implements MailOutbox {
  readonly #outbox: Collection<OutboxDocument>;

  constructor(outbox: Collection<OutboxDocument>) {
    this.#outbox = outbox;
  }

  async enqueue(e: OutboxEntry): Promise<void> {
    await guarded(() => this.#outbox.insertOne(toDocument(e)));
  }

  async claimDue(now: Date, heldUntil: Date, limit: number): Promise<OutboxEntry[]> {
    const due = await guarded(() =>
      this.#outbox
        .find({ nextAttemptAt: { $lte: now } })
        .sort({ nextAttemptAt: 1, _id: 1 })
        .limit(limit)
        .toArray(),
    );
    // Each claim a conditional update on the time it was read with (compare and set): of two
    // instances that read the same entry, one moves it, the other's update matches nothing.
    // (Not findOneAndUpdate: FerretDB v1, which the tests run on, does not make it atomic.)
    const claimed: OutboxEntry[] = [];
    for (const doc of due) {
      const result = await guarded(() =>
        this.#outbox.updateOne(
          { _id: doc._id, nextAttemptAt: doc.nextAttemptAt },
          { $set: { nextAttemptAt: heldUntil } },
        ),
      );
      if (result.modifiedCount === 1) claimed.push(toEntry({ ...doc, nextAttemptAt: heldUntil }));
    }
    return claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  async delivered(id: string): Promise<void> {
    await guarded(() => this.#outbox.deleteOne({ _id: id }));
  }

  async drop(id: string): Promise<void> {
    await this.delivered(id);
  }

  async failed(id: string, error: string, nextAttemptAt: Date): Promise<void> {
    await guarded(() =>
      this.#outbox.updateOne({ _id: id }, { $inc: { attempts: 1 }, $set: { lastError: error, nextAttemptAt } }),
    );
  }

  /**
   * At most DISCARD_BATCH a call, by the discardAfter index: every instance calls it every 15 s,
   * and a backlog goes in batches rather than in one unbounded read.
   */
  async discardExpired(now: Date): Promise<OutboxEntry[]> {
    const expired = await guarded(() =>
      this.#outbox
        .find({ discardAfter: { $lt: now } })
        .sort({ discardAfter: 1 })
        .limit(DISCARD_BATCH)
        .toArray(),
    );
    if (expired.length === 0) return [];
    await guarded(() =>
      this.#outbox.deleteMany({ _id: { $in: expired.map((d) => d._id) }, discardAfter: { $lt: now } }),
    );
    return expired.map(toEntry);
  }
}

function toDocument(e: OutboxEntry): OutboxDocument {
  return {
    _id: e.id,
    to: e.to,
    subject: e.subject,
    text: e.text,
    createdAt: e.createdAt,
    discardAfter: e.discardAfter,
    attempts: e.attempts,
    nextAttemptAt: e.nextAttemptAt,
    lastError: e.lastError,
    ...(e.link ? { link: { id: e.link.id, url: e.link.url, secretId: e.link.secretId } } : {}),
  };
}

function toEntry(d: OutboxDocument): OutboxEntry {
  return {
    id: d._id,
    to: d.to,
    subject: d.subject,
    text: d.text,
    createdAt: d.createdAt,
    discardAfter: d.discardAfter,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt,
    lastError: d.lastError,
    ...(d.link ? { link: { id: d.link.id, url: d.link.url, secretId: d.link.secretId } } : {}),
  };
}
