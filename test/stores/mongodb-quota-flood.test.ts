// The MongoDB rate-limit counters under a flood on one key (issue 43, M2), without a server: a
// stand-in collection whose updates wait until the test lets them go, so that a flood's hits
// pile up behind the first as they would behind a slow round trip. The counters' behaviour on
// servers is test/stores/contract (every store) and test/rate-limit.
import type { Collection } from 'mongodb';
import { describe, expect, test } from 'vitest';
import type { QuotaDocument } from '../../src/stores/mongodb/documents.ts';
import { MongoQuotaCounter, QUOTA_QUEUE_LIMIT } from '../../src/stores/mongodb/quota.store.ts';

/** A stand-in of the quota collection: one counter per key; each update waits for `open`. */
function slowQuotas() {
  const docs = new Map<string, QuotaDocument>();
  let calls = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const collection = {
    async findOneAndUpdate(
      filter: { _id: string; resetAt: { $gt?: Date; $lte?: Date } },
      update: { $inc?: { hits: number }; $set?: { hits: number; resetAt: Date } },
    ) {
      calls++;
      await gate;
      const doc = docs.get(filter._id);
      const live = doc !== undefined && doc.resetAt > (filter.resetAt.$gt ?? filter.resetAt.$lte!);
      if (update.$inc) {
        if (!live) return null;
        doc.hits += update.$inc.hits;
        return { ...doc };
      }
      const started = { _id: filter._id, ...update.$set! } as QuotaDocument;
      docs.set(filter._id, started);
      return { ...started };
    },
    async updateOne() {
      calls++;
      await gate;
      return {};
    },
  };
  return { quotas: collection as unknown as Collection<QuotaDocument>, docs, calls: () => calls, open: () => open() };
}

describe('rate-limit counters on MongoDB, one key flooded', () => {
  test('when more hits of one key arrive at once than the queue holds, then those past it are answered over the limit at once, and the store sees only the queued ones', async () => {
    const { quotas, docs, calls, open } = slowQuotas();
    const counter = new MongoQuotaCounter(quotas, () => 1_000_000);
    const flood = Array.from({ length: QUOTA_QUEUE_LIMIT + 36 }, () => counter.hit('login:victim', 60_000));
    const settled: number[] = [];
    flood.forEach((p, i) => void p.then(() => settled.push(i)));
    // Before the store answers anything, the 36 past the queue are answered already.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toHaveLength(36);
    const early = await Promise.all(flood.slice(QUOTA_QUEUE_LIMIT));
    for (const w of early) expect(w.hits).toBeGreaterThan(1_000_000);
    expect(early[0]!.resetAt.getTime()).toBe(1_000_000 + 60_000);
    // Only the first of the queue has reached the store; the rest wait their turn, not the store.
    expect(calls()).toBe(1);
    open();
    const queued = await Promise.all(flood.slice(0, QUOTA_QUEUE_LIMIT));
    expect(queued.map((w) => w.hits)).toEqual(Array.from({ length: QUOTA_QUEUE_LIMIT }, (_, i) => i + 1));
    expect(docs.get('login:victim')?.hits).toBe(QUOTA_QUEUE_LIMIT);
    // Another key was never held up by it, and the flooded key counts again once its queue drains.
    expect((await counter.hit('login:other', 60_000)).hits).toBe(1);
    expect((await counter.hit('login:victim', 60_000)).hits).toBe(QUOTA_QUEUE_LIMIT + 1);
  });
});
