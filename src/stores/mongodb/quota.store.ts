// The rate limits' counters on MongoDB: one document per key in `rate_limits`, shared by every
// instance; the TTL index deletes a window's document once it is over (an expired one that TTL
// has not reached yet is treated as absent). No maintained package fits: rate-limit-mongo
// brings its own driver (3.x) and connection, and counts fixed windows by $inc on an upsert that
// resets late; this is three single-document updates on the store's own client.
import { MongoServerError, type Collection } from 'mongodb';
import type { QuotaCounter, QuotaWindow } from '../../domain/metering/metering.ports.ts';
import type { QuotaDocument } from './documents.ts';
import { guarded } from '../../mongodb-shared/errors.ts';
import { InTurn, TurnsFullError } from './in-turn.ts';
import { BOUNDED_READ, OPERATION_TIME_LIMIT_MS } from './limits.ts';

const DUPLICATE_KEY = 11000;
/** A counter is no record: acknowledged by the primary is enough (a failover may forget a few hits). */
const QUICK = { writeConcern: { w: 1, wtimeoutMS: OPERATION_TIME_LIMIT_MS } } as const;

/**
 * Hits of one key this process queues at most (issue 43, M2). Past it the key is flooded — this
 * many requests at once on one address, one e-mail, one link — far beyond any of the limits
 * (tens a minute), so the hit is answered as over the limit at once (FLOODED) instead of
 * waiting its turn: the queue's memory and wait stay bounded for everyone on the key.
 */
export const QUOTA_QUEUE_LIMIT = 64;
/** The count a flooded key's hit reports: over every limit. */
const FLOODED = Number.MAX_SAFE_INTEGER;

export class MongoQuotaCounter implements QuotaCounter {
  readonly #quotas: Collection<QuotaDocument>;
  readonly #now: () => number;
  /** One update of a counter at a time from this process (in-turn.ts says why). */
  readonly #turns = new InTurn();

  constructor(quotas: Collection<QuotaDocument>, now: () => number = Date.now) {
    this.#quotas = quotas;
    this.#now = now;
  }

  async hit(key: string, windowMs: number): Promise<QuotaWindow> {
    try {
      return await this.#turns.run(key, () => this.#hit(key, windowMs), QUOTA_QUEUE_LIMIT);
    } catch (error) {
      if (!(error instanceof TurnsFullError)) throw error;
      // Not counted in the store (nothing waits for it): refused as over the limit, for a window.
      return { hits: FLOODED, resetAt: new Date(this.#now() + windowMs) };
    }
  }

  async #hit(key: string, windowMs: number): Promise<QuotaWindow> {
    // A live window counts one more; else one is started (replacing one that is over). Two
    // instances starting it at once: one inserts, the other meets a duplicate key and counts in
    // the window the first started.
    for (let attempt = 1; ; attempt++) {
      const now = new Date(this.#now());
      const live = await guarded(() =>
        this.#quotas.findOneAndUpdate(
          { _id: key, resetAt: { $gt: now } },
          { $inc: { hits: 1 } },
          { ...QUICK, returnDocument: 'after' },
        ),
      );
      if (live) return window(live);
      try {
        const started = await guarded(() =>
          this.#quotas.findOneAndUpdate(
            { _id: key, resetAt: { $lte: now } },
            { $set: { hits: 1, resetAt: new Date(now.getTime() + windowMs) } },
            { ...QUICK, upsert: true, returnDocument: 'after' },
          ),
        );
        if (started) return window(started);
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY) || attempt === 3) throw error;
      }
    }
  }

  async unhit(key: string): Promise<void> {
    try {
      await this.#turns.run(
        key,
        async () =>
          void (await guarded(() =>
            this.#quotas.updateOne(
              { _id: key, resetAt: { $gt: new Date(this.#now()) }, hits: { $gt: 0 } },
              { $inc: { hits: -1 } },
              QUICK,
            ),
          )),
        QUOTA_QUEUE_LIMIT,
      );
    } catch (error) {
      // A flooded key's hit was not counted either: its decrement is dropped, not queued.
      if (!(error instanceof TurnsFullError)) throw error;
    }
  }

  async get(key: string): Promise<QuotaWindow | undefined> {
    const doc = await guarded(() =>
      this.#quotas.findOne({ _id: key, resetAt: { $gt: new Date(this.#now()) } }, BOUNDED_READ),
    );
    return doc ? window(doc) : undefined;
  }

  async reset(key: string): Promise<void> {
    await guarded(() => this.#quotas.deleteOne({ _id: key }, QUICK));
  }
}

function window(doc: QuotaDocument): QuotaWindow {
  return { hits: doc.hits, resetAt: doc.resetAt };
}
