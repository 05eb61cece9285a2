// Fills usage_days from the records of a database written before the per-day counters existed
// (1.1 and earlier), once per database. Every start of the API (and `school-search indexes`)
// calls it; once it has run, that is one read of its marker.
//
// Once, even when instances start together: the marker document (`migrations`, _id usage_days)
// is claimed by one instance with a conditional update. The others wait for it (they serve no
// request before the counters are complete, so no record of theirs can be counted twice), and
// take over when a claim lapses (the claimer died): the work goes on from the last batch it
// finished. Records are read in _id order, a batch at a time; a batch is added to its days with
// $inc, each day document noting the last batch it took (`migrated`) in the same update, so a
// batch done again (by a claimer that died before recording its progress, or one that lost its
// claim and has not noticed yet) adds nothing twice, and no counter is ever overwritten.
import { randomUUID } from 'node:crypto';
import { MongoBulkWriteError, MongoServerError, type AnyBulkWriteOperation, type Collection, type Db } from 'mongodb';
import { COLLECTIONS, type MigrationDocument, type RequestDocument, type UsageDayDocument } from './documents.ts';
import { guarded } from '../../mongodb-shared/errors.ts';
import { dayOf } from './request.store.ts';

const MIGRATION = 'usage_days';
const DUPLICATE_KEY = 11000;

export interface MigrationOptions {
  readonly now?: () => number;
  /** How long a claim lasts without news from its holder (renewed with every batch). Default 60 s. */
  readonly leaseMs?: number;
  /** Records per batch. Default 1,000. */
  readonly batch?: number;
  /** How often a waiting instance looks at the marker again. Default 500 ms. */
  readonly pollMs?: number;
  /** Told, each time it looks, that this instance waits for another's migration. */
  readonly onWait?: (progress: { readonly batches: number }) => void;
}

/** The claimed marker's progress: the batches done and the last record of the last one. */
interface Progress {
  readonly batches: number;
  readonly after: string | undefined;
}

export async function migrateUsage(db: Db, options: MigrationOptions = {}): Promise<void> {
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? 60_000;
  const migrations = db.collection<MigrationDocument>(COLLECTIONS.migrations);
  const holder = randomUUID();
  for (;;) {
    const marker = await guarded(() => migrations.findOne({ _id: MIGRATION }));
    if (marker?.at) return; // Done (the marker 1.2 wrote has `at` too).
    if (await claim(db, holder, now, leaseMs)) {
      await migrate(db, holder, { batches: marker?.batches ?? 0, after: marker?.after }, now, leaseMs, options);
      return;
    }
    options.onWait?.({ batches: marker?.batches ?? 0 });
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500));
  }
}

/** The marker is this instance's when nobody holds it (no claim yet, or one that lapsed) and it is not done. */
async function claim(db: Db, holder: string, now: () => number, leaseMs: number): Promise<boolean> {
  const migrations = db.collection<MigrationDocument>(COLLECTIONS.migrations);
  try {
    await guarded(() =>
      migrations.updateOne(
        {
          _id: MIGRATION,
          at: { $exists: false },
          $or: [{ until: { $exists: false } }, { until: { $lte: new Date(now()) } }],
        },
        { $set: { holder, until: new Date(now() + leaseMs) } },
        { upsert: true },
      ),
    );
    return true;
  } catch (error) {
    // The upsert's insert met the marker: held by another, or done.
    if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
    throw error;
  }
}

async function migrate(
  db: Db,
  holder: string,
  from: Progress,
  now: () => number,
  leaseMs: number,
  options: MigrationOptions,
): Promise<void> {
  const migrations = db.collection<MigrationDocument>(COLLECTIONS.migrations);
  const requests = db.collection<RequestDocument>(COLLECTIONS.requests);
  const days = db.collection<UsageDayDocument>(COLLECTIONS.usageDays);
  let { batches, after } = from;
  for (;;) {
    const records = await guarded(() =>
      requests
        .find(after === undefined ? {} : { _id: { $gt: after } }, {
          projection: { userId: 1, timeMade: 1, cost: 1, day: 1 },
        })
        .sort({ _id: 1 })
        .limit(options.batch ?? 1000)
        .toArray(),
    );
    if (records.length === 0) break;
    const batch = batches + 1;
    const byDay = new Map<string, { userId: string; day: string; count: number; cost: number; lastAt: Date }>();
    for (const doc of records) {
      const day = doc.day ?? dayOf(doc.timeMade);
      const key = `${doc.userId}|${day}`;
      const d = byDay.get(key);
      if (d) {
        d.count++;
        d.cost += doc.cost;
        if (doc.timeMade > d.lastAt) d.lastAt = doc.timeMade;
      } else byDay.set(key, { userId: doc.userId, day, count: 1, cost: doc.cost, lastAt: doc.timeMade });
    }
    const entries = [...byDay];
    // The days this batch needs, made empty where missing (an update with a filter on `migrated`
    // cannot upsert: it would insert a second document of the same _id where the filter fails).
    await writeDays(
      days,
      entries.map(([_id, d]) => ({
        updateOne: {
          filter: { _id },
          update: { $setOnInsert: { userId: d.userId, day: d.day, count: 0, cost: 0, lastAt: d.lastAt, applied: [] } },
          upsert: true,
        },
      })),
    );
    // Each day adds the batch once: the update that adds it records it.
    await writeDays(
      days,
      entries.map(([_id, d]) => ({
        updateOne: {
          filter: { _id, $or: [{ migrated: { $exists: false } }, { migrated: { $lt: batch } }] },
          update: { $inc: { count: d.count, cost: d.cost }, $max: { lastAt: d.lastAt }, $set: { migrated: batch } },
        },
      })),
    );
    after = records.at(-1)!._id;
    batches = batch;
    // The progress, and the claim renewed; a claim lost meanwhile (this instance was too slow)
    // leaves the rest to its new holder.
    const kept = await guarded(() =>
      migrations.updateOne({ _id: MIGRATION, holder }, { $set: { batches, after, until: new Date(now() + leaseMs) } }),
    );
    if (kept.matchedCount !== 1) return;
  }
  await guarded(() =>
    migrations.updateOne({ _id: MIGRATION, holder }, { $set: { at: new Date(now()) }, $unset: { until: '' } }),
  );
}

/**
 * Unordered writes of day documents; two upserts of one new day at once (a holder that lost its
 * claim, still writing) make a duplicate key, and the writes are made again (FerretDB v1 also
 * stops an unordered batch at its first error).
 */
async function writeDays(
  days: Collection<UsageDayDocument>,
  writes: AnyBulkWriteOperation<UsageDayDocument>[],
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await guarded(() => days.bulkWrite(writes, { ordered: false }));
      return;
    } catch (error) {
      const duplicates =
        error instanceof MongoBulkWriteError && [error.writeErrors].flat().every((e) => e.code === DUPLICATE_KEY);
      if (!duplicates || attempt === 3) throw error;
    }
  }
}
