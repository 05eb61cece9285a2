// Totals of the $text engine that every API instance shares, per catalog version (issue 26,
// finding 9). A total past the candidate limit reads every school holding the query's rarest
// word (text-pipeline.ts, totalPipeline): counted by each instance for each catalog version, the
// most asked of them were counted again by every instance at once after each import. Here the
// first instance to need one claims it, counts it and stores it; the others wait for it (a claim
// is short: one count, within the store's operation time limit) and read it. One document per
// total in the wing's per-version collection (`search_totals`, catalog-extension.ts: the store hands
// it back as SchoolCatalog.perVersion, src/mongodb-shared/catalog.port.ts), `_id` the version and the
// engine's key; an import's version bump deletes those of other versions (the store does, as the
// port says, reading nothing but their `version`, by its index). Totals within a radius are not
// shared: their key holds the point, which few searches repeat, and one document per point would
// grow the collection without limit between imports. Read and written on the primary: a claim
// must be seen by every instance. A store that cannot be asked (an election) leaves each instance
// to count alone.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection } from 'mongodb';
import type { PerVersionDocument } from '../../mongodb-shared/catalog.port.ts';
import { guarded, isDuplicateKey } from '../../mongodb-shared/errors.ts';
import type { SharedTotals } from './candidates.ts';

/** A document of the totals' collection: one shared total of one catalog version. */
export interface SearchTotalDocument extends PerVersionDocument {
  /** `<version> <key>`: the catalog version and the engine's key for the total (query words and scope). */
  _id: string;
  /** The total, once counted. */
  n?: number;
  /** Until when the instance counting it holds its claim. */
  until?: Date;
}

/**
 * How soon an instance waiting for another's count first looks for it, and how far apart its
 * looks grow (each twice the one before): a short count is read at once, a long one (up to the
 * 10 s a count may take) costs the primary about a dozen reads per waiting instance and key,
 * not one every 25 ms (issue 43, L5).
 */
export const FIRST_POLL_MS = 25;
export const MAX_POLL_MS = 800;

export class MongoSearchTotals implements SharedTotals {
  readonly #totals: Collection<SearchTotalDocument>;
  /** One count's time limit (the store's operation time limit): a search waits for another's count no longer. */
  readonly #countMs: number;
  /** How long a claim holds: one count's time limit, and as much again for the clocks and the write. */
  readonly #claimMs: number;
  readonly #now: () => number;

  constructor(totals: Collection<SearchTotalDocument>, countMs: number, now: () => number = Date.now) {
    this.#totals = totals;
    this.#countMs = countMs;
    this.#claimMs = 2 * countMs;
    this.#now = now;
  }

  async get(version: string, key: string, count: () => Promise<number>): Promise<number> {
    const _id = `${version} ${key}`;
    // A search waits for another instance's count at most as long as counting it itself may take.
    const deadline = this.#now() + this.#countMs;
    let poll = FIRST_POLL_MS;
    for (;;) {
      let doc: SearchTotalDocument | null;
      let claimed = false;
      try {
        doc = await guarded(() => this.#totals.findOne({ _id }));
        if (doc?.n !== undefined) return doc.n;
        const claim = doc?.until?.getTime();
        if (claim !== undefined && claim > this.#now()) {
          if (this.#now() >= deadline) return count();
          await sleep(Math.min(poll, Math.max(1, deadline - this.#now())));
          poll = Math.min(2 * poll, MAX_POLL_MS);
          continue;
        }
        claimed = await this.#claim(_id, version, doc !== null);
      } catch {
        // The shared totals cannot be read or claimed now (no primary): this instance counts alone.
        return count();
      }
      if (!claimed) continue;
      let n: number;
      try {
        n = await count();
      } catch (error) {
        // Another instance may count it at once rather than wait for the claim to lapse.
        await guarded(() => this.#totals.updateOne({ _id, n: { $exists: false } }, { $unset: { until: '' } })).catch(
          () => undefined,
        );
        throw error;
      }
      await guarded(() => this.#totals.updateOne({ _id }, { $set: { n }, $unset: { until: '' } })).catch(
        () => undefined,
      );
      return n;
    }
  }

  /** Claims the total (a new document, or one whose claim lapsed); false when another instance was first. */
  async #claim(_id: string, version: string, exists: boolean): Promise<boolean> {
    const now = this.#now();
    const until = new Date(now + this.#claimMs);
    if (exists) {
      const taken = await guarded(() =>
        this.#totals.updateOne(
          { _id, n: { $exists: false }, $or: [{ until: { $exists: false } }, { until: { $lte: new Date(now) } }] },
          { $set: { until } },
        ),
      );
      return taken.modifiedCount === 1;
    }
    try {
      await this.#totals.insertOne({ _id, version, until });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }
}
