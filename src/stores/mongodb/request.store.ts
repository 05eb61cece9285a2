import type { Collection } from 'mongodb';
import type { RequestLog, RequestRecord, Usage } from '../../domain/ports.ts';
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
        { _id: record.id, userId: record.userId, requestMade: record.requestMade, timeMade: record.timeMade, cost: record.cost },
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

function toRecord(doc: RequestDocument): RequestRecord {
  return { id: doc._id, userId: doc.userId, requestMade: doc.requestMade, timeMade: doc.timeMade, cost: doc.cost };
}
