import { MongoServerError, type Collection } from 'mongodb';
import type { HistoryPosition } from '../../domain/history.cursor.ts';
import type { DayUsage, HistoryPage, HistoryQuery, RequestLog, RequestRecord, Usage } from '../../domain/ports.ts';
import type { RequestDocument, UsageDayDocument } from './documents.ts';
import { guarded } from './errors.ts';
import { InTurn } from './in-turn.ts';
import { OPERATION_TIME_LIMIT_MS } from './limits.ts';

/**
 * The record is the only write of a search: acknowledged by a majority of the replica set and
 * journaled before append resolves, so a tid a client has seen survives a failover or a crash.
 */
const DURABLE = { writeConcern: { w: 'majority', journal: true, wtimeoutMS: OPERATION_TIME_LIMIT_MS } } as const;
/** Reads that scan a user's records: bounded on the server (a 503 past it). */
const BOUNDED = { maxTimeMS: OPERATION_TIME_LIMIT_MS } as const;
/**
 * A record pending longer than this is one whose append stopped (a crash, a lost reply): the
 * next read of its user counts it. Longer than any append can still be under way (each of its
 * writes gives up after OPERATION_TIME_LIMIT_MS), so that a read never counts a record whose
 * own append is about to.
 */
export const STALE_PENDING_MS = 6 * OPERATION_TIME_LIMIT_MS;
const DUPLICATE_KEY = 11000;

/**
 * Records and their per-day usage counters, without a multi-document transaction (FerretDB has
 * none; on a replica set one would cost a round trip more). Counting a record is idempotent, so
 * a count lost to a crash is made by whoever comes next, and never twice:
 *   1. the record is inserted marked `pending` (durable: from here on it is in the history);
 *   2. its day's document adds its count and cost and notes its id in `applied`, on the
 *      condition that `applied` does not hold it yet (repeating step 2 changes nothing);
 *   3. the record's mark is cleared, then 4. its id leaves `applied`.
 * A record left pending (a crash anywhere, a failed write) is finished by steps 2–4 at the next
 * read of its user's usage or history, once it is stale. Each step is one atomic single-document
 * update on MongoDB.
 */
export class MongoRequestLog implements RequestLog {
  readonly #requests: Collection<RequestDocument>;
  readonly #days: Collection<UsageDayDocument>;
  readonly #now: () => number;
  /** One update of a day document at a time from this process (in-turn.ts says why). */
  readonly #turns = new InTurn();

  constructor(requests: Collection<RequestDocument>, days: Collection<UsageDayDocument>, now: () => number = Date.now) {
    this.#requests = requests;
    this.#days = days;
    this.#now = now;
  }

  async append(record: RequestRecord): Promise<void> {
    const day = dayOf(record.timeMade);
    await guarded(() =>
      this.#requests.insertOne(
        {
          _id: record.id,
          userId: record.userId,
          requestMade: record.requestMade,
          timeMade: record.timeMade,
          cost: record.cost,
          day,
          pending: true,
        },
        DURABLE,
      ),
    );
    await this.#turns.run(dayKey(record.userId, day), async () => {
      await this.#count(record.userId, day, record.id, record.cost, record.timeMade);
      // Steps 3 and 4: a failure leaves work for the next read, which finishes it.
      await this.#settle(record.userId, day, [record.id]).catch(() => undefined);
    });
  }

  /** Step 2, idempotent: counts the record in its day unless that day has counted it already. */
  async #count(userId: string, day: string, id: string, cost: number, at: Date): Promise<void> {
    // A duplicate key is the upsert's insert meeting a day document: one that another append
    // created just now (the second attempt then updates it), or one that has counted this
    // record (the second attempt meets it again: nothing to do).
    for (let attempt = 1; ; attempt++) {
      try {
        await guarded(() =>
          this.#days.updateOne(
            { _id: dayKey(userId, day), applied: { $ne: id } },
            { $inc: { count: 1, cost }, $max: { lastAt: at }, $push: { applied: id }, $setOnInsert: { userId, day } },
            { ...DURABLE, upsert: true },
          ),
        );
        return;
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
        if (attempt === 2) return;
      }
    }
  }

  /** Steps 3 and 4 for records of one day. */
  async #settle(userId: string, day: string, ids: readonly string[]): Promise<void> {
    await guarded(() =>
      Promise.all([
        this.#requests.updateMany({ _id: { $in: [...ids] } }, { $unset: { pending: '' } }),
        // $pullAll: FerretDB v1 ignores $pull with $in.
        this.#days.updateOne({ _id: dayKey(userId, day) }, { $pullAll: { applied: [...ids] } }),
      ]),
    );
  }

  /** Counts the user's records whose append stopped before finishing (rare: none unless one did). */
  async #heal(userId: string): Promise<void> {
    const stale = new Date(this.#now() - STALE_PENDING_MS);
    const left = await guarded(() =>
      this.#requests
        .find(
          { pending: true, userId, timeMade: { $lt: stale } },
          { ...BOUNDED, projection: { _id: 1, cost: 1, timeMade: 1, day: 1 } },
        )
        .limit(1000)
        .toArray(),
    );
    const byDay = new Map<string, string[]>();
    for (const doc of left) {
      const day = doc.day ?? dayOf(doc.timeMade);
      await this.#turns.run(dayKey(userId, day), () => this.#count(userId, day, doc._id, doc.cost, doc.timeMade));
      byDay.set(day, [...(byDay.get(day) ?? []), doc._id]);
    }
    for (const [day, ids] of byDay) await this.#turns.run(dayKey(userId, day), () => this.#settle(userId, day, ids));
  }

  async list(userId: string, query: HistoryQuery): Promise<HistoryPage> {
    await this.#heal(userId);
    const kept = query.keptFrom ? { $gte: new Date(`${query.keptFrom}T00:00:00.000Z`) } : {};
    const filter = query.after
      ? { userId, timeMade: { ...kept, $lte: query.after.timeMade }, $nor: [sameTimeNotBefore(query.after)] }
      : query.keptFrom
        ? { userId, timeMade: kept }
        : { userId };
    const [total, docs] = await guarded(() =>
      Promise.all([
        this.#total(userId, query.keptFrom),
        this.#requests
          .find(filter, BOUNDED)
          .sort({ timeMade: -1, _id: -1 })
          .skip(query.offset)
          .limit(query.limit + 1)
          .toArray(),
      ]),
    );
    return { total, more: docs.length > query.limit, records: docs.slice(0, query.limit).map(toRecord) };
  }

  /** The records counted on the user's days (from `keptFrom` on): one small document per day. */
  async #total(userId: string, keptFrom: string | undefined): Promise<number> {
    const days = await this.#days
      .find(keptFrom ? { userId, day: { $gte: keptFrom } } : { userId }, { ...BOUNDED, projection: { count: 1 } })
      .toArray();
    return days.reduce((sum, d) => sum + d.count, 0);
  }

  async usageByDay(userId: string, from: string, to: string): Promise<DayUsage[]> {
    await this.#heal(userId);
    const days = await guarded(() =>
      this.#days
        .find({ userId, day: { $gte: from, $lte: to } }, { ...BOUNDED, projection: { day: 1, count: 1, cost: 1 } })
        .sort({ day: 1 })
        .toArray(),
    );
    return days.map((d) => ({ day: d.day, count: d.count, cost: d.cost }));
  }

  async usage(userId: string): Promise<Usage> {
    await this.#heal(userId);
    const days = await guarded(() =>
      this.#days.find({ userId }, { ...BOUNDED, projection: { count: 1, cost: 1, lastAt: 1 } }).toArray(),
    );
    let count = 0;
    let totalCost = 0;
    let lastAt: Date | null = null;
    for (const d of days) {
      count += d.count;
      totalCost += d.cost;
      if (!lastAt || d.lastAt > lastAt) lastAt = d.lastAt;
    }
    return { count, totalCost, lastAt };
  }

  /** By user (the user-and-time index; there is none on time alone), for the users with days before `day`. */
  async purgeBefore(day: string): Promise<number> {
    const before = new Date(`${day}T00:00:00.000Z`);
    // Not distinct(): FerretDB v1 refuses its maxTimeMS. A purge runs in the background, unbounded.
    const users = new Set(
      (await guarded(() => this.#days.find({ day: { $lt: day } }, { projection: { userId: 1 } }).toArray())).map(
        (d) => d.userId,
      ),
    );
    let deleted = 0;
    for (const userId of users) {
      const { deletedCount } = await guarded(() => this.#requests.deleteMany({ userId, timeMade: { $lt: before } }));
      deleted += deletedCount;
    }
    return deleted;
  }
}

/** Records of the cursor's own time at or above its id: on or before the cursor in newest-first order. */
function sameTimeNotBefore(after: HistoryPosition): object {
  return { timeMade: after.timeMade, _id: { $gte: after.id } };
}

function dayKey(userId: string, day: string): string {
  return `${userId}|${day}`;
}

/** The UTC calendar day of a time: YYYY-MM-DD. */
export function dayOf(time: Date): string {
  return time.toISOString().slice(0, 10);
}

function toRecord(doc: RequestDocument): RequestRecord {
  return { id: doc._id, userId: doc.userId, requestMade: doc.requestMade, timeMade: doc.timeMade, cost: doc.cost };
}
