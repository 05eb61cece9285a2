// A lease: work that one API instance at a time should do (the retention purge), held by whoever
// claimed it last until it lapses. One document per lease in `leases`, claimed and renewed by
// conditional updates (atomic on MongoDB). A holder that dies keeps it until it lapses; one that
// is too slow to renew finds it taken (renew answers false) and stops.
import { randomUUID } from 'node:crypto';
import { MongoServerError, type Collection } from 'mongodb';
import { guarded } from '../../mongodb-shared/errors.ts';

export interface LeaseDocument {
  _id: string;
  holder: string;
  until: Date;
}

const DUPLICATE_KEY = 11000;

export class Lease {
  readonly #leases: Collection<LeaseDocument>;
  readonly #name: string;
  readonly #now: () => number;
  readonly #holder = randomUUID();

  constructor(leases: Collection<LeaseDocument>, name: string, now: () => number = Date.now) {
    this.#leases = leases;
    this.#name = name;
    this.#now = now;
  }

  /** Claims it for `ms` when nobody holds it (or this holder does); false when another does. */
  async acquire(ms: number): Promise<boolean> {
    const now = this.#now();
    try {
      await guarded(() =>
        this.#leases.updateOne(
          { _id: this.#name, $or: [{ until: { $lte: new Date(now) } }, { holder: this.#holder }] },
          { $set: { holder: this.#holder, until: new Date(now + ms) } },
          { upsert: true },
        ),
      );
      return true;
    } catch (error) {
      // The upsert's insert met the lease: another holds it.
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  /** Holds it `ms` more; false when it has been taken meanwhile (it lapsed). */
  async renew(ms: number): Promise<boolean> {
    const kept = await guarded(() =>
      this.#leases.updateOne(
        { _id: this.#name, holder: this.#holder },
        { $set: { until: new Date(this.#now() + ms) } },
      ),
    );
    return kept.matchedCount === 1;
  }

  /** Lets it go at once (if still held). */
  async release(): Promise<void> {
    await guarded(() =>
      this.#leases.updateOne({ _id: this.#name, holder: this.#holder }, { $set: { until: new Date(0) } }),
    );
  }
}
