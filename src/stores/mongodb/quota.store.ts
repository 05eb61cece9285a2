// The rate limits' counters on MongoDB: one document per key in `rate_limits`, shared by every
// instance; the TTL index deletes a window's document once it is over (an expired one that TTL
// has not reached yet is treated as absent). No maintained package fits: rate-limit-mongo
// brings its own driver (3.x) and connection, and counts fixed windows by $inc on an upsert that
// resets late; this is three single-document updates on the store's own client.
import { MongoServerError, type Collection } from 'mongodb';
import type { QuotaCounter, QuotaWindow } from '../../domain/metering/metering.ports.ts';
import type { QuotaDocument } from './documents.ts';
import { guarded } from '../../mongodb-shared/errors.ts';
import { InTurn } from './in-turn.ts';
import { OPERATION_TIME_LIMIT_MS } from './limits.ts';

const DUPLICATE_KEY = 11000;
/** A counter is no record: acknowledged by the primary is enough (a failover may forget a few hits). */
const QUICK = { writeConcern: { w: 1, wtimeoutMS: OPERATION_TIME_LIMIT_MS } } as const;

export class MongoQuotaCounter implements QuotaCounter {
  readonly #quotas: Collection<QuotaDocument>;
  readonly #now: () => number;
  /** One update of a counter at a time from this process (in-turn.ts says why). */
  readonly #turns = new InTurn();

  constructor(quotas: Collection<QuotaDocument>, now: () => number = Date.now) {
    this.#quotas = quotas;
    this.#now = now;
  }

  hit(key: string, windowMs: number): Promise<QuotaWindow> {
    return this.#turns.run(key, () => this.#hit(key, windowMs));
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

  unhit(key: string): Promise<void> {
    return this.#turns.run(
      key,
      async () =>
        void (await guarded(() =>
          this.#quotas.updateOne(
            { _id: key, resetAt: { $gt: new Date(this.#now()) }, hits: { $gt: 0 } },
            { $inc: { hits: -1 } },
            QUICK,
          ),
        )),
    );
  }

  async get(key: string): Promise<QuotaWindow | undefined> {
    const doc = await guarded(() => this.#quotas.findOne({ _id: key, resetAt: { $gt: new Date(this.#now()) } }));
    return doc ? window(doc) : undefined;
  }

  async reset(key: string): Promise<void> {
    await guarded(() => this.#quotas.deleteOne({ _id: key }, QUICK));
  }
}

function window(doc: QuotaDocument): QuotaWindow {
  return { hits: doc.hits, resetAt: doc.resetAt };
}
