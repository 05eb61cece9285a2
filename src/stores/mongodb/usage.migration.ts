// Fills usage_days from the records there are, once per database: the per-day counters came after
// the records (every append since keeps them). Run at start-up (and by `school-search indexes`);
// a marker document makes it a no-op afterwards. Appends that other instances make while it runs
// may be miscounted, so an operator runs `school-search indexes` before starting instances of
// this version (docs/scaling.md).
import type { AnyBulkWriteOperation, Db } from 'mongodb';
import { COLLECTIONS, type MigrationDocument, type RequestDocument, type UsageDayDocument } from './documents.ts';
import { guarded } from './errors.ts';
import { dayOf } from './request.store.ts';

const MIGRATION = 'usage_days';
const BATCH = 1000;

export async function migrateUsage(db: Db): Promise<void> {
  const migrations = db.collection<MigrationDocument>(COLLECTIONS.migrations);
  if (await guarded(() => migrations.findOne({ _id: MIGRATION }))) return;
  const requests = db.collection<RequestDocument>(COLLECTIONS.requests);
  const days = new Map<string, { userId: string; day: string; count: number; cost: number; lastAt: Date }>();
  // One pass over the records, in the server's natural order; only the fields a day needs.
  const cursor = requests.find({}, { projection: { userId: 1, timeMade: 1, cost: 1, day: 1 } }).batchSize(BATCH);
  for await (const doc of cursor) {
    const day = doc.day ?? dayOf(doc.timeMade);
    const key = `${doc.userId}|${day}`;
    const d = days.get(key);
    if (d) {
      d.count++;
      d.cost += doc.cost;
      if (doc.timeMade > d.lastAt) d.lastAt = doc.timeMade;
    } else days.set(key, { userId: doc.userId, day, count: 1, cost: doc.cost, lastAt: doc.timeMade });
  }
  const writes: AnyBulkWriteOperation<UsageDayDocument>[] = [...days].map(([_id, d]) => ({
    updateOne: { filter: { _id }, update: { $set: { ...d, applied: [] } }, upsert: true },
  }));
  for (let i = 0; i < writes.length; i += BATCH)
    await guarded(() => db.collection<UsageDayDocument>(COLLECTIONS.usageDays).bulkWrite(writes.slice(i, i + BATCH)));
  await guarded(() => migrations.updateOne({ _id: MIGRATION }, { $setOnInsert: { at: new Date() } }, { upsert: true }));
}
