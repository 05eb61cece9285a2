import { MongoServerError, type Collection, type Filter } from 'mongodb';
import type { HistoryPosition } from '../../domain/metering/history-cursor.ts';
import type {
  DayUsage,
  HistoryPage,
  HistoryQuery,
  RecordedSearch,
  RequestLog,
  RequestRecord,
  SourceUsage,
  Usage,
} from '../../domain/metering/metering.ports.ts';
import { LONGEST_USAGE_CHART_DAYS } from '../../domain/metering/retention.ts';
import { tokenHolds } from '../../domain/accounts/credentials.ts';
import { stillAdmits } from '../../domain/accounts/origins.ts';
import { OriginNotAllowedError, RecordExistsError, UnauthenticatedError } from '../../domain/shared/errors.ts';
import type { HeldToken } from '../../domain/accounts/accounts.ports.ts';
import type { RecordedSearchDocument, RequestDocument, UsageBeforeDocument, UsageDayDocument } from './documents.ts';
import { guarded, isDuplicateKey } from '../../mongodb-shared/errors.ts';
import { InTurn, TurnsFullError } from './in-turn.ts';
import { Lease, type LeaseDocument } from './lease.ts';
import {
  CLOCK_SKEW_MS,
  COUNT_START_BUDGET_MS,
  OPERATION_TIME_LIMIT_MS,
  SERVER_SELECTION_TIMEOUT_MS,
  SOCKET_TIMEOUT_MS,
  WAIT_QUEUE_TIMEOUT_MS,
} from './limits.ts';

/**
 * The record is the only write of a search: acknowledged by a majority of the replica set and
 * journaled before append resolves, so a tid a client has seen survives a failover or a crash.
 */
const DURABLE = { writeConcern: { w: 'majority', journal: true, wtimeoutMS: OPERATION_TIME_LIMIT_MS } } as const;
/** Reads that scan a user's records: bounded on the server (a 503 past it). */
const BOUNDED = { maxTimeMS: OPERATION_TIME_LIMIT_MS } as const;
const DUPLICATE_KEY = 11000;
/** A read counts at most this many of its user's uncounted records (the next read goes on). */
const HEAL_BATCH = 1000;
/** Records deleted, or usage days folded, per step of the retention purge. */
const PURGE_BATCH = 1000;
/** The purge's claim, renewed with each batch: an instance that dies holding it stops the purge this long. */
const PURGE_LEASE_MS = 120_000;
const DAY_MS = 86_400_000;

/** How a request log counts records in their days' usage (see MongoRequestLog). */
export interface Counting {
  /** How long a record is its counter's alone: the append's, or a read's that claimed it. */
  readonly leaseMs: number;
  /**
   * The longest a write handed to the driver may take to reach the server and be applied there,
   * or fail without being applied, plus the instances' clock skew. A count starts only while at
   * least this much of its lease is left, so it has landed or failed before anyone else may count.
   */
  readonly landingMs: number;
  /** Day-document writes waiting in this process, per user and day: an append past it leaves its count to a later read. */
  readonly queueLimit: number;
}

/** The client's limits a write's landing time is made of (the driver's option names). */
export interface WriteLimits {
  readonly serverSelectionTimeoutMS: number;
  readonly waitQueueTimeoutMS: number;
  readonly socketTimeoutMS: number;
}

/**
 * The counting a client with these limits allows. A write lands or fails within: server
 * selection, the wait for a pooled connection, then the socket timeout (or the server's own
 * limit, maxTimeMS, if longer); twice, for the driver retries a write once. A limit of 0 (none)
 * bounds nothing: such a client cannot hand a count over safely, and is refused by the store.
 */
export function countingFor(limits: WriteLimits): Counting {
  const attempt =
    limits.serverSelectionTimeoutMS +
    limits.waitQueueTimeoutMS +
    Math.max(limits.socketTimeoutMS, OPERATION_TIME_LIMIT_MS);
  const landingMs = 2 * attempt + CLOCK_SKEW_MS;
  return { leaseMs: landingMs + COUNT_START_BUDGET_MS, landingMs, queueLimit: 64 };
}

/** Counting with the store's default limits (limits.ts). */
export const DEFAULT_COUNTING = countingFor({
  serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
  waitQueueTimeoutMS: WAIT_QUEUE_TIMEOUT_MS,
  socketTimeoutMS: SOCKET_TIMEOUT_MS,
});

/** With the default limits, a record still pending this long after its append is counted by the next read of its user. */
export const STALE_PENDING_MS = DEFAULT_COUNTING.leaseMs;

/**
 * Records and their per-day usage counters, without a multi-document transaction (FerretDB has
 * none; on a replica set one would cost a round trip more). Each record is counted once:
 *   1. the record is inserted `pending`, with a lease: until it ends the record is this
 *      append's to count (durable: from here on it is in the history);
 *   2. its day's document adds its count and cost and notes its id in `applied`, on the
 *      condition that `applied` does not hold it yet (one update: repeating it changes nothing);
 *   3. the record's mark is cleared, on the condition that it still holds this lease;
 *   4. only then does its id leave `applied`.
 * A record whose lease ended uncounted or unsettled (a crash, a failed write, a count that waited
 * too long) is claimed by the next read of its user's usage or history: a new lease, set on the
 * condition that the old one has ended, then steps 2–4 under it. One holder at a time, then: two
 * readers cannot both claim, and a step 3 under an ended lease changes nothing, so an id leaves
 * `applied` only once its record can no longer be counted. A holder starts step 2 only while
 * `landingMs` of its lease is left (its write has landed or failed before the lease ends), and a
 * day's queue in this process is bounded: an append that finds it full returns, its count left to
 * a read. Each step is one atomic single-document update on MongoDB.
 */
/** What append's madeWith asks of the tokens (MongoTokenStore.holds). */
export interface TokenCheck {
  holds(tokenId: string, at: Date): Promise<HeldToken | null>;
}

export class MongoRequestLog implements RequestLog {
  readonly #requests: Collection<RequestDocument>;
  readonly #days: Collection<UsageDayDocument>;
  readonly #now: () => number;
  readonly #counting: Counting;
  /** Where the retention purge is claimed (one instance at a time); without it, every caller purges. */
  readonly #leases: Collection<LeaseDocument> | undefined;
  /** For append's madeWith: the token when it is live at a time and holds for its account now. */
  readonly #tokens: TokenCheck | undefined;
  /** One update of a day document at a time from this process (in-turn.ts says why). */
  readonly #turns = new InTurn();

  constructor(
    requests: Collection<RequestDocument>,
    days: Collection<UsageDayDocument>,
    now: () => number = Date.now,
    counting: Counting = DEFAULT_COUNTING,
    leases?: Collection<LeaseDocument>,
    tokens?: TokenCheck,
  ) {
    this.#tokens = tokens;
    this.#requests = requests;
    this.#days = days;
    this.#now = now;
    this.#counting = counting;
    this.#leases = leases;
  }

  async append(record: RequestRecord, madeWith?: string): Promise<void> {
    // Read just before the insert, not in one transaction with it (the store uses none): a
    // revocation in between is the same race as one during the request. The API never asks it
    // of this store (its tokens are read, not remembered); the contract is kept all the same.
    if (madeWith !== undefined) {
      const tokens = this.#tokens;
      if (!tokens) throw new Error('this request log was made without the tokens collection');
      const held = await tokens.holds(madeWith, record.timeMade);
      if (!held || !tokenHolds(held.token, held.holder)) throw new UnauthenticatedError('revoked');
      if (!stillAdmits(held.token.publishable, record.origin)) throw new OriginNotAllowedError(record.origin);
    }
    const day = dayOf(record.timeMade);
    const lease = new Date(this.#now() + this.#counting.leaseMs);
    await guarded(async () => {
      await this.#requests.insertOne(
        {
          _id: record.id,
          userId: record.userId,
          requestMade: record.requestMade,
          timeMade: record.timeMade,
          cost: record.cost,
          ...(record.search ? { search: searchDocument(record.search) } : {}),
          ...(record.keyId !== undefined ? { keyId: record.keyId } : {}),
          ...(record.origin !== undefined ? { origin: record.origin } : {}),
          day,
          pending: true,
          lease,
        },
        DURABLE,
      );
    }).catch((error: unknown) => {
      // Its id is stored already (a search retried with its Idempotency-Key): that record is
      // the search's, counted by its own append or by a read; nothing is written or counted here.
      if (isDuplicateKey(error, '_id')) throw new RecordExistsError(record.id);
      throw error;
    });
    // A full queue or a late turn: the record is durable; a read counts it once its lease ends.
    // So does a failed count (a write concern timeout, an election past server selection): the
    // record is stored and will be billed once, so the search is answered; a 503 here would
    // have the client retry, and the retry be billed again (issue 43, M3). SQLite does both in
    // one transaction.
    await this.#countUnder(lease, record.userId, day, record).catch(() => false);
  }

  /**
   * Steps 2–4 for a record this process holds the lease of, in its day's turn; whether step 2 was
   * made. Not when the day's queue is full, or the lease too far gone when its turn comes (a read
   * counts the record after it). A failure of step 2 is the caller's; of steps 3–4, the next
   * read's to finish.
   */
  async #countUnder(
    lease: Date,
    userId: string,
    day: string,
    record: { id: string; cost: number; timeMade: Date; keyId?: string | undefined; origin?: string | undefined },
  ): Promise<boolean> {
    return this.#turns
      .run(
        dayKey(userId, day),
        async () => {
          if (lease.getTime() - this.#now() < this.#counting.landingMs) return false;
          await this.#count(userId, day, record.id, record.cost, record.timeMade, sourceField(record));
          await this.#settle(userId, day, record.id, lease).catch(() => undefined);
          return true;
        },
        this.#counting.queueLimit,
      )
      .catch((error: unknown) => {
        if (error instanceof TurnsFullError) return false;
        throw error;
      });
  }

  /** Step 2, idempotent: counts the record in its day (and its source there) unless that day has counted it already. */
  async #count(userId: string, day: string, id: string, cost: number, at: Date, source: string): Promise<void> {
    // A duplicate key is the upsert's insert meeting a day document: one that another append
    // created just now (the second attempt then updates it), or one that has counted this
    // record (the second attempt meets it again: nothing to do).
    for (let attempt = 1; ; attempt++) {
      try {
        await guarded(() =>
          this.#days.updateOne(
            { _id: dayKey(userId, day), applied: { $ne: id } },
            {
              $inc: { count: 1, cost, [`sources.${source}.count`]: 1, [`sources.${source}.cost`]: cost },
              $max: { lastAt: at },
              $push: { applied: id },
              $setOnInsert: { userId, day },
            },
            // maxTimeMS: the server gives it up rather than apply it late.
            { ...DURABLE, ...BOUNDED, upsert: true },
          ),
        );
        return;
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
        if (attempt === 2) return;
      }
    }
  }

  /** Steps 3 then 4: the record's mark cleared under this lease, and only then its id released. */
  async #settle(userId: string, day: string, id: string, lease: Date): Promise<void> {
    const cleared = await guarded(() =>
      this.#requests.updateOne({ _id: id, pending: true, lease }, { $unset: { pending: '', lease: '' } }),
    );
    if (cleared.modifiedCount !== 1) return; // Another holder's now (or done): it releases the id.
    // $pullAll: FerretDB v1 ignores $pull with $in.
    await guarded(() => this.#days.updateOne({ _id: dayKey(userId, day) }, { $pullAll: { applied: [id] } }));
  }

  /** The user's records nobody holds and that are not counted yet (records of before leases: pending a lease's length). */
  #unheld(now: number): Filter<RequestDocument> {
    return {
      pending: true,
      $or: [
        { lease: { $lt: new Date(now) } },
        { lease: { $exists: false }, timeMade: { $lt: new Date(now - this.#counting.leaseMs) } },
      ],
    };
  }

  /**
   * Claims an uncounted record nobody holds (a new lease, unless another read or its append holds
   * one) and counts it under that lease; whether it is counted now.
   */
  async #claimAndCount(
    doc: Pick<RequestDocument, '_id' | 'userId' | 'cost' | 'timeMade' | 'day' | 'keyId' | 'origin'>,
  ): Promise<boolean> {
    const now = this.#now();
    const lease = new Date(now + this.#counting.leaseMs);
    const claimed = await guarded(() =>
      this.#requests.updateOne({ _id: doc._id, ...this.#unheld(now) }, { $set: { lease } }, BOUNDED),
    );
    if (claimed.modifiedCount !== 1) return false;
    const record = { id: doc._id, cost: doc.cost, timeMade: doc.timeMade, keyId: doc.keyId, origin: doc.origin };
    return this.#countUnder(lease, doc.userId, doc.day ?? dayOf(doc.timeMade), record);
  }

  /** Counts the user's records whose append stopped before finishing (rare: none unless one did). */
  async #heal(userId: string): Promise<void> {
    const left = await guarded(() =>
      this.#requests
        .find(
          { userId, ...this.#unheld(this.#now()) },
          { ...BOUNDED, projection: { _id: 1, userId: 1, cost: 1, timeMade: 1, day: 1, keyId: 1, origin: 1 } },
        )
        .limit(HEAL_BATCH)
        .toArray(),
    );
    for (const doc of left) await this.#claimAndCount(doc);
  }

  async recordOf(userId: string, id: string): Promise<RequestRecord | null> {
    const doc = await guarded(() => this.#requests.findOne({ _id: id, userId }, BOUNDED));
    return doc ? toRecord(doc) : null;
  }

  async list(userId: string, query: HistoryQuery): Promise<HistoryPage> {
    await this.#heal(userId);
    const kept = query.keptFrom ? { $gte: new Date(`${query.keptFrom}T00:00:00.000Z`) } : {};
    // One key's records: by requests_by_key (userId, keyId, timeMade, _id), as the others by user.
    const owner = query.keyId === undefined ? { userId } : { userId, keyId: query.keyId };
    const filter = query.after
      ? { ...owner, timeMade: { ...kept, $lte: query.after.timeMade }, $nor: [sameTimeNotBefore(query.after)] }
      : query.keptFrom
        ? { ...owner, timeMade: kept }
        : owner;
    const [total, docs] = await guarded(() =>
      Promise.all([
        query.keyId === undefined
          ? this.#total(userId, query.keptFrom)
          : this.#keyDays(userId, query.keptFrom ?? '', '9999-12-31', query.keyId).then((days) =>
              days.reduce((sum, d) => sum + d.count, 0),
            ),
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

  async usageByDay(userId: string, from: string, to: string, keyId?: string): Promise<DayUsage[]> {
    await this.#heal(userId);
    if (keyId !== undefined) return guarded(() => this.#keyDays(userId, from, to, keyId));
    const days = await guarded(() =>
      this.#days
        .find({ userId, day: { $gte: from, $lte: to } }, { ...BOUNDED, projection: { day: 1, count: 1, cost: 1 } })
        .sort({ day: 1 })
        .toArray(),
    );
    return days.map((d) => ({ day: d.day, count: d.count, cost: d.cost }));
  }

  /** The days of `from`..`to` with that key's count and cost (summed over its sources), oldest first. */
  async #keyDays(userId: string, from: string, to: string, keyId: string): Promise<DayUsage[]> {
    const days = await this.#days
      .find({ userId, day: { $gte: from, $lte: to } }, { ...BOUNDED, projection: { day: 1, sources: 1 } })
      .sort({ day: 1 })
      .toArray();
    const out: DayUsage[] = [];
    for (const d of days) {
      let count = 0;
      let cost = 0;
      for (const [field, n] of Object.entries(d.sources ?? {})) {
        if (sourceOf(field).keyId !== keyId) continue;
        count += n.count;
        cost += n.cost;
      }
      if (count > 0) out.push({ day: d.day, count, cost });
    }
    return out;
  }

  async usageBySource(userId: string, from: string, to: string): Promise<SourceUsage[]> {
    await this.#heal(userId);
    const days = await guarded(() =>
      this.#days
        .find({ userId, day: { $gte: from, $lte: to } }, { ...BOUNDED, projection: { count: 1, cost: 1, sources: 1 } })
        .toArray(),
    );
    const totals = new Map<string, SourceUsage>();
    const add = (field: string, count: number, cost: number) => {
      const t = totals.get(field);
      totals.set(
        field,
        t ? { ...t, count: t.count + count, cost: t.cost + cost } : { ...sourceOf(field), count, cost },
      );
    };
    for (const d of days) {
      let counted = 0;
      let costed = 0;
      for (const [field, n] of Object.entries(d.sources ?? {})) {
        add(field, n.count, n.cost);
        counted += n.count;
        costed += n.cost;
      }
      // Records counted before sources were kept: sessions'.
      if (d.count > counted) add(sourceField({}), d.count - counted, d.cost - costed);
    }
    return [...totals.values()];
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

  /**
   * The retention purge (RequestLog.purgeBefore), by one instance at a time: a lease in `leases`,
   * renewed with each batch; another instance's call meanwhile returns 0 at once. Records go in
   * batches of PURGE_BATCH, oldest first, found and deleted by time (`requests_by_time`): one
   * bounded deleteMany per batch, whatever the number of users. A record of the batch still
   * uncounted is counted first (usage counts every record made); one another instance holds is
   * left to the next run. Then, once no such record is left, the usage days older than both the
   * retention and the longest usage chart are folded into their user's `<userId>|before` document
   * (the usage totals keep counting them; no chart reaches them) and deleted.
   */
  async purgeBefore(day: string): Promise<number> {
    const lease = this.#leases ? new Lease(this.#leases, 'retention_purge', this.#now) : undefined;
    if (lease && !(await lease.acquire(PURGE_LEASE_MS))) return 0;
    try {
      const { deleted, complete } = await this.#purgeRecords(new Date(`${day}T00:00:00.000Z`), lease);
      if (complete) {
        const today = Date.parse(`${dayOf(new Date(this.#now()))}T00:00:00.000Z`);
        const charted = dayOf(new Date(today - (LONGEST_USAGE_CHART_DAYS - 1) * DAY_MS));
        await this.#foldDays(day < charted ? day : charted, lease);
      }
      return deleted;
    } finally {
      await lease?.release().catch(() => undefined);
    }
  }

  async #purgeRecords(before: Date, lease: Lease | undefined): Promise<{ deleted: number; complete: boolean }> {
    let deleted = 0;
    /** Uncounted records another instance holds: kept until the next run. */
    const held: string[] = [];
    for (;;) {
      const batch = await guarded(() =>
        this.#requests
          .find(
            { timeMade: { $lt: before }, ...(held.length > 0 ? { _id: { $nin: held } } : {}) },
            { projection: { _id: 1, userId: 1, cost: 1, timeMade: 1, day: 1, pending: 1, keyId: 1, origin: 1 } },
          )
          .sort({ timeMade: 1 })
          .limit(PURGE_BATCH)
          .toArray(),
      );
      if (batch.length === 0) break;
      const gone: string[] = [];
      for (const doc of batch) {
        if (!doc.pending || (await this.#claimAndCount(doc))) gone.push(doc._id);
        else held.push(doc._id);
      }
      if (gone.length > 0) {
        const { deletedCount } = await guarded(() =>
          this.#requests.deleteMany({ _id: { $in: gone }, timeMade: { $lt: before } }),
        );
        deleted += deletedCount;
      }
      if (batch.length < PURGE_BATCH) break;
      if (lease && !(await lease.renew(PURGE_LEASE_MS))) return { deleted, complete: false };
    }
    return { deleted, complete: held.length === 0 };
  }

  /** Folds the usage days before `horizon` into their users' totals, oldest first (`usage_days_by_day`), and deletes them. */
  async #foldDays(horizon: string, lease: Lease | undefined): Promise<void> {
    for (;;) {
      const old = await guarded(() =>
        this.#days
          .find({ day: { $lt: horizon } }, { projection: { userId: 1, day: 1, count: 1, cost: 1, lastAt: 1 } })
          .sort({ day: 1 })
          .limit(PURGE_BATCH)
          .toArray(),
      );
      for (const d of old) {
        await this.#fold(d);
        await guarded(() => this.#days.deleteOne({ _id: d._id }));
      }
      if (old.length < PURGE_BATCH) return;
      if (lease && !(await lease.renew(PURGE_LEASE_MS))) return;
    }
  }

  /**
   * Adds a day to its user's total of folded days, once: the update that adds it moves the total's
   * `through` to that day, and days are folded in order. A total already through the day has it
   * (a run that stopped before deleting it); one through a later day meets a day that came back
   * after it was folded (a count that landed late), which is added without moving `through`.
   */
  async #fold(d: Pick<UsageDayDocument, 'userId' | 'day' | 'count' | 'cost' | 'lastAt'>): Promise<void> {
    const totals = this.#days as unknown as Collection<UsageBeforeDocument>;
    const _id = `${d.userId}|before`;
    const add = { $inc: { count: d.count, cost: d.cost }, $max: { lastAt: d.lastAt } };
    try {
      await guarded(() =>
        totals.updateOne(
          { _id, $or: [{ through: { $exists: false } }, { through: { $lt: d.day } }] },
          { ...add, $set: { through: d.day }, $setOnInsert: { userId: d.userId } },
          { upsert: true },
        ),
      );
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      await guarded(() => totals.updateOne({ _id, through: { $gt: d.day } }, add));
    }
  }
}

/** Records of the cursor's own time at or above its id: on or before the cursor in newest-first order. */
function sameTimeNotBefore(after: HistoryPosition): object {
  return { timeMade: after.timeMade, _id: { $gte: after.id } };
}

function dayKey(userId: string, day: string): string {
  return `${userId}|${day}`;
}

/**
 * A source's field in a day's `sources`: `k` and the key's id (or `-` for none), then for a
 * publishable key's page `o` and the origin in base64url (an origin's dots would make a path of
 * the field name; base64url has no dot, `$` or `.`).
 */
export function sourceField(record: { keyId?: string | undefined; origin?: string | undefined }): string {
  const key = `k${record.keyId ?? '-'}`;
  return record.origin === undefined ? key : `${key}o${Buffer.from(record.origin).toString('base64url')}`;
}

export function sourceOf(field: string): { keyId: string | null; origin: string | null } {
  const o = field.indexOf('o');
  const key = field.slice(1, o < 0 ? undefined : o);
  return {
    keyId: key === '-' ? null : key,
    origin: o < 0 ? null : Buffer.from(field.slice(o + 1), 'base64url').toString(),
  };
}

/** The UTC calendar day of a time: YYYY-MM-DD. */
export function dayOf(time: Date): string {
  return time.toISOString().slice(0, 10);
}

function toRecord(doc: RequestDocument): RequestRecord {
  const record = {
    id: doc._id,
    userId: doc.userId,
    requestMade: doc.requestMade,
    timeMade: doc.timeMade,
    cost: doc.cost,
    ...(doc.keyId !== undefined && { keyId: doc.keyId }),
    ...(doc.origin !== undefined && { origin: doc.origin }),
  };
  if (!doc.search) return record;
  // Field by field, so that nothing else a document holds leaks into a record.
  const { stateCode, offset, limit, levels, types, near, radiusKm } = doc.search;
  const search: RecordedSearch = {
    ...(stateCode !== undefined && { stateCode }),
    offset,
    limit,
    ...(levels !== undefined && { level: levels }),
    ...(types !== undefined && { type: types }),
    ...(near !== undefined && { near: { latitude: near.latitude, longitude: near.longitude } }),
    ...(radiusKm !== undefined && { radiusKm }),
  };
  return { ...record, search };
}

/** A record's search as its document holds it (RecordedSearchDocument's names). */
function searchDocument(search: RecordedSearch): RecordedSearchDocument {
  return {
    ...(search.stateCode !== undefined && { stateCode: search.stateCode }),
    offset: search.offset,
    limit: search.limit,
    ...(search.level !== undefined && { levels: search.level }),
    ...(search.type !== undefined && { types: search.type }),
    ...(search.near !== undefined && { near: { latitude: search.near.latitude, longitude: search.near.longitude } }),
    ...(search.radiusKm !== undefined && { radiusKm: search.radiusKm }),
  };
}
