import type { Collection } from 'mongodb';
import type { DayUsage, RequestLog, RequestRecord, Usage } from '../../domain/ports.ts';
import type { RequestDocument } from './documents.ts';
import { guarded } from './errors.ts';
import { OPERATION_TIME_LIMIT_MS } from './limits.ts';

/**
 * The record is the only write of a search: acknowledged by a majority of the replica set and
 * journaled before append resolves, so a tid a client has seen survives a failover or a crash.
 */
const DURABLE = { writeConcern: { w: 'majority', journal: true, wtimeoutMS: OPERATION_TIME_LIMIT_MS } } as const;
/** Reads that scan a user's records: bounded on the server (a 503 past it). */
const BOUNDED = { maxTimeMS: OPERATION_TIME_LIMIT_MS } as const;

export class MongoRequestLog implements RequestLog {
  readonly #requests: Collection<RequestDocument>;

  constructor(requests: Collection<RequestDocument>) {
    this.#requests = requests;
  }

  async append(record: RequestRecord): Promise<void> {
    await guarded(() =>
      this.#requests.insertOne(
        { _id: record.id, userId: record.userId, requestMade: record.requestMade, timeMade: record.timeMade, cost: record.cost, day: dayOf(record.timeMade) },
        DURABLE,
      ),
    );
  }

  async list(userId: string, offset: number, limit: number): Promise<{ total: number; records: RequestRecord[] }> {
    const [total, docs] = await guarded(() =>
      Promise.all([
        this.#requests.countDocuments({ userId }, BOUNDED),
        this.#requests.find({ userId }, BOUNDED).sort({ timeMade: -1, _id: -1 }).skip(offset).limit(limit).toArray(),
      ]),
    );
    return { total, records: docs.map(toRecord) };
  }

  /**
   * Grouped on the server by the `day` each record is written with (an index holds user, day and
   * cost: the read never touches a document). Records written before `day` existed are found by
   * their time and grouped here; there are none once the history has been written by this version.
   */
  async usageByDay(userId: string, from: string, to: string): Promise<DayUsage[]> {
    const start = new Date(`${from}T00:00:00.000Z`);
    const end = new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000);
    const match = { $match: { userId, day: { $gte: from, $lte: to } } };
    // Count and cost in two groupings: FerretDB v1 computes only the first accumulator of a
    // $group with several (the others come back 0). Both read the same index range.
    const [counts, costs, legacy] = await guarded(() =>
      Promise.all([
        this.#requests.aggregate<{ _id: string; n: number }>([match, { $group: { _id: '$day', n: { $sum: 1 } } }], BOUNDED).toArray(),
        this.#requests.aggregate<{ _id: string; total: number }>([match, { $group: { _id: '$day', total: { $sum: '$cost' } } }], BOUNDED).toArray(),
        this.#requests.find({ userId, timeMade: { $gte: start, $lt: end }, day: { $exists: false } }, { ...BOUNDED, projection: { timeMade: 1, cost: 1 } }).toArray(),
      ]),
    );
    const cost = new Map(costs.map((c) => [c._id, c.total]));
    const days = new Map(counts.map((g) => [g._id, { day: g._id, count: g.n, cost: cost.get(g._id) ?? 0 }]));
    for (const doc of legacy) {
      const day = dayOf(doc.timeMade);
      const d = days.get(day) ?? { day, count: 0, cost: 0 };
      days.set(day, { day, count: d.count + 1, cost: d.cost + doc.cost });
    }
    return [...days.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  }

  /**
   * Totals are computed from the records themselves (from the index, which holds every field
   * this reads), not kept in a counter: with no multi-document transaction a counter could
   * drift from the history after a failed second write. Three index reads, run together.
   */
  async usage(userId: string): Promise<Usage> {
    const [count, [cost], [last]] = await guarded(() =>
      Promise.all([
        this.#requests.countDocuments({ userId }, BOUNDED),
        this.#requests
          .aggregate<{ total: number }>([{ $match: { userId } }, { $group: { _id: null, total: { $sum: '$cost' } } }], BOUNDED)
          .toArray(),
        this.#requests.find({ userId }, { projection: { _id: 0, timeMade: 1 } }).sort({ timeMade: -1, _id: -1 }).limit(1).toArray(),
      ]),
    );
    return { count, totalCost: cost?.total ?? 0, lastAt: last?.timeMade ?? null };
  }
}

/** The UTC calendar day of a time: YYYY-MM-DD. */
function dayOf(time: Date): string {
  return time.toISOString().slice(0, 10);
}

function toRecord(doc: RequestDocument): RequestRecord {
  return { id: doc._id, userId: doc.userId, requestMade: doc.requestMade, timeMade: doc.timeMade, cost: doc.cost };
}
