// RequestLog: every metered request, newest first, paged, summed per user, and durable.
import { describe, expect, test } from 'vitest';
import type { HistoryPosition } from '../../../src/domain/metering/history-cursor.ts';
import type { HistoryPage, RequestRecord } from '../../../src/domain/metering/metering.ports.ts';
import type { Store } from '../../../src/domain/store.port.ts';
import { at, HOUR, record, recordId, SECOND, token, tokenId, user } from '../../support/builders.ts';
import type { ContractPart } from './context.ts';

const ALICE = user(1);
const BOB = user(2);

/** Records belong to users (SQLite keeps the totals on the user), so the users come first. */
async function seed(store: Store, ...records: RequestRecord[]): Promise<void> {
  await store.users.create(ALICE);
  await store.users.create(BOB);
  for (const r of records) await store.requests.append(r);
}

/**
 * Seven records of Alice, appended out of order. Three share one timeMade and two another, so
 * their order comes from the id (descending), which is not the order they were appended in.
 */
function alices(): { appended: RequestRecord[]; newestFirst: RequestRecord[] } {
  const r = (n: number, s: number, cost = 1) => record(n, ALICE.id, at(s * SECOND), cost);
  const appended = [r(4, 20), r(2, 10), r(7, 30), r(1, 10, 3), r(5, 20), r(6, 40, 2), r(3, 10)];
  const byN = (n: number) => appended.find((x) => x.id === recordId(n))!;
  return { appended, newestFirst: [6, 7, 5, 4, 3, 2, 1].map(byN) };
}

export const requestsContract: ContractPart = (_target, fixture) => {
  describe('RequestLog', () => {
    test('when a record is appended with the token it was made with, then it is stored while that token is live, and refused as revoked with nothing stored once it is revoked, expired at its time or gone', async () => {
      const { store } = fixture();
      await seed(store);
      const live = token(1, ALICE.id, { expiresAt: at(HOUR) });
      const revoked = token(2, ALICE.id, { expiresAt: at(HOUR) });
      const expiring = token(3, ALICE.id, { expiresAt: at(10 * SECOND) });
      for (const t of [live, revoked, expiring]) await store.tokens.insert(t);
      expect(await store.tokens.revoke(ALICE.id, revoked.id, at(SECOND))).toBe(true);
      const refused = { name: 'UnauthenticatedError', reason: 'revoked' };

      await store.requests.append(record(1, ALICE.id, at(2 * SECOND)), live.id);
      await expect(store.requests.append(record(2, ALICE.id, at(2 * SECOND)), revoked.id)).rejects.toMatchObject(
        refused,
      );
      await store.requests.append(record(3, ALICE.id, at(9 * SECOND)), expiring.id);
      await expect(store.requests.append(record(4, ALICE.id, at(10 * SECOND)), expiring.id)).rejects.toMatchObject(
        refused,
      );
      await expect(store.requests.append(record(5, ALICE.id, at(2 * SECOND)), tokenId(9))).rejects.toMatchObject(
        refused,
      );
      // Without a token to check, as before.
      await store.requests.append(record(6, ALICE.id, at(3 * SECOND)));

      const page = await store.requests.list(ALICE.id, { offset: 0, limit: 10 });
      expect(page.records.map((r) => r.id)).toStrictEqual([recordId(3), recordId(6), recordId(1)]);
      expect(await store.requests.usage(ALICE.id)).toMatchObject({ count: 3, totalCost: 3 });
    });

    test('when usage is asked per day, then records are counted and their costs summed per UTC day, both ends included, other users and days left out', async () => {
      const { store } = fixture();
      const time = (iso: string) => new Date(iso);
      await seed(
        store,
        record(1, ALICE.id, time('2026-11-19T23:59:59.999Z')), // the day before `from`
        record(2, ALICE.id, time('2026-11-20T00:00:00.000Z'), 2),
        record(3, ALICE.id, time('2026-11-20T13:00:00.000Z'), 3),
        record(4, ALICE.id, time('2026-11-22T23:59:59.999Z')),
        record(5, BOB.id, time('2026-11-21T10:00:00.000Z')),
        record(6, ALICE.id, time('2026-11-23T00:00:00.000Z')), // the day after `to`
      );
      expect(await store.requests.usageByDay(ALICE.id, '2026-11-20', '2026-11-22')).toStrictEqual([
        { day: '2026-11-20', count: 2, cost: 5 },
        { day: '2026-11-22', count: 1, cost: 1 },
      ]);
      expect(await store.requests.usageByDay(BOB.id, '2026-11-21', '2026-11-21')).toStrictEqual([
        { day: '2026-11-21', count: 1, cost: 1 },
      ]);
      expect(await store.requests.usageByDay(BOB.id, '2026-11-22', '2026-11-23')).toStrictEqual([]);
    });

    test('when records keep a search scope, then list returns it as stored, and records without one without it', async () => {
      const { store } = fixture();
      const withState = { ...record(1, ALICE.id, at(1 * SECOND)), search: { stateCode: 'QC', offset: 0, limit: 25 } };
      const withoutState = { ...record(2, ALICE.id, at(2 * SECOND)), search: { offset: 50, limit: 5 } };
      const older = record(3, ALICE.id, at(3 * SECOND));
      const filtered = {
        ...record(4, ALICE.id, at(4 * SECOND)),
        search: {
          offset: 0,
          limit: 10,
          level: ['elementary', 'middle'] as const,
          type: ['charter'] as const,
          near: { latitude: 45.5019, longitude: -73.5674 },
          radiusKm: 2.5,
        },
      };
      await seed(store, withState, withoutState, older, filtered);
      expect((await store.requests.list(ALICE.id, { offset: 0, limit: 10 })).records).toStrictEqual([
        filtered,
        older,
        withoutState,
        withState,
      ]);
    });

    test('when records are appended, then list returns them field for field, newest first, ties by id descending', async () => {
      const { store } = fixture();
      const { appended, newestFirst } = alices();
      await seed(store, ...appended);
      expect(await store.requests.list(ALICE.id, { offset: 0, limit: 100 })).toStrictEqual({
        total: 7,
        more: false,
        records: newestFirst,
      });
    });

    test('when listed page by page, then the pages join to the whole list, and a page past the end is empty with the total', async () => {
      const { store } = fixture();
      const { appended, newestFirst } = alices();
      await seed(store, ...appended);
      const pages = [];
      for (let offset = 0; offset < 7; offset += 3)
        pages.push(await store.requests.list(ALICE.id, { offset: offset, limit: 3 }));
      expect(pages.map((p) => p.total)).toStrictEqual([7, 7, 7]);
      expect(pages.map((p) => p.records.length)).toStrictEqual([3, 3, 1]);
      expect(pages.map((p) => p.more)).toStrictEqual([true, true, false]);
      expect(pages.flatMap((p) => p.records)).toStrictEqual(newestFirst);
      expect(await store.requests.list(ALICE.id, { offset: 7, limit: 3 })).toStrictEqual({
        total: 7,
        more: false,
        records: [],
      });
      expect(await store.requests.list(ALICE.id, { offset: 50, limit: 3 })).toStrictEqual({
        total: 7,
        more: false,
        records: [],
      });
    });

    test('when paged by cursor, then each page starts right after the last record of the one before, ties by id, and the pages join to the whole list', async () => {
      const { store } = fixture();
      const { appended, newestFirst } = alices();
      await seed(store, ...appended);
      const pages: HistoryPage[] = [];
      let after: HistoryPosition | undefined;
      do {
        const page = await store.requests.list(ALICE.id, { offset: 0, limit: 2, after });
        pages.push(page);
        after = page.records.at(-1);
        if (!page.more) break;
      } while (pages.length < 10);
      // Pages of 2 split the three records of 10 s and the two of 20 s: the cursor's id breaks the tie.
      expect(pages.map((p) => p.records.length)).toStrictEqual([2, 2, 2, 1]);
      expect(pages.flatMap((p) => p.records)).toStrictEqual(newestFirst);
      expect(pages.map((p) => p.total)).toStrictEqual([7, 7, 7, 7]);
      // An offset counts from the cursor; a cursor at the oldest record leaves nothing.
      expect(
        (await store.requests.list(ALICE.id, { offset: 1, limit: 2, after: newestFirst[1] })).records,
      ).toStrictEqual(newestFirst.slice(3, 5));
      expect(await store.requests.list(ALICE.id, { offset: 0, limit: 2, after: newestFirst[6] })).toStrictEqual({
        total: 7,
        more: false,
        records: [],
      });
    });

    test('when a retention keeps records from a day on, then older ones are neither listed nor counted in the total, and usage still counts them', async () => {
      const { store } = fixture();
      const time = (iso: string) => new Date(iso);
      const old = record(1, ALICE.id, time('2026-11-19T23:59:59.999Z'), 2);
      const kept = [
        record(2, ALICE.id, time('2026-11-20T00:00:00.000Z')),
        record(3, ALICE.id, time('2026-11-21T08:00:00.000Z')),
      ];
      await seed(store, old, ...kept, record(4, BOB.id, time('2026-11-18T08:00:00.000Z')));
      expect(await store.requests.list(ALICE.id, { offset: 0, limit: 10, keptFrom: '2026-11-20' })).toStrictEqual({
        total: 2,
        more: false,
        records: [kept[1], kept[0]],
      });
      expect(
        await store.requests.list(ALICE.id, { offset: 0, limit: 10, keptFrom: '2026-11-20', after: kept[1] }),
      ).toStrictEqual({ total: 2, more: false, records: [kept[0]] });
      // The purge deletes every user's records of the days before, once: a second run finds none.
      expect(await store.requests.purgeBefore('2026-11-20')).toBe(2);
      expect(await store.requests.purgeBefore('2026-11-20')).toBe(0);
      expect(await store.requests.list(ALICE.id, { offset: 0, limit: 10 })).toStrictEqual({
        total: 3,
        more: false,
        records: [kept[1], kept[0]],
      });
      expect(await store.requests.list(BOB.id, { offset: 0, limit: 10, keptFrom: '2026-11-20' })).toStrictEqual({
        total: 0,
        more: false,
        records: [],
      });
      expect(await store.requests.usage(ALICE.id)).toStrictEqual({ count: 3, totalCost: 4, lastAt: kept[1]!.timeMade });
      expect(await store.requests.usageByDay(ALICE.id, '2026-11-19', '2026-11-21')).toStrictEqual([
        { day: '2026-11-19', count: 1, cost: 2 },
        { day: '2026-11-20', count: 1, cost: 1 },
        { day: '2026-11-21', count: 1, cost: 1 },
      ]);
    });

    test('when records are appended, then usage counts them, sums every cost and gives the latest timeMade', async () => {
      const { store } = fixture();
      const { appended } = alices();
      await seed(store, ...appended);
      // Costs 1+1+1+3+1+2+1; the latest (40 s) was not the last appended.
      expect(await store.requests.usage(ALICE.id)).toStrictEqual({ count: 7, totalCost: 10, lastAt: at(40 * SECOND) });
    });

    test('when a user has no records, then list is empty with total 0 and usage is zeros and null', async () => {
      const { store } = fixture();
      await seed(store, record(1, ALICE.id, at(0)));
      expect(await store.requests.list(BOB.id, { offset: 0, limit: 10 })).toStrictEqual({
        total: 0,
        more: false,
        records: [],
      });
      expect(await store.requests.usage(BOB.id)).toStrictEqual({ count: 0, totalCost: 0, lastAt: null });
      expect(await store.requests.usage(user(3).id)).toStrictEqual({ count: 0, totalCost: 0, lastAt: null });
    });

    test('when two users make requests, then each sees only their own records and usage', async () => {
      const { store } = fixture();
      const a = [record(1, ALICE.id, at(SECOND), 2), record(3, ALICE.id, at(3 * SECOND))];
      const b = [
        record(2, BOB.id, at(2 * SECOND), 5),
        record(4, BOB.id, at(4 * SECOND)),
        record(5, BOB.id, at(5 * SECOND)),
      ];
      await seed(store, a[0]!, b[0]!, a[1]!, b[1]!, b[2]!);
      expect(await store.requests.list(ALICE.id, { offset: 0, limit: 10 })).toStrictEqual({
        total: 2,
        more: false,
        records: [a[1], a[0]],
      });
      expect(await store.requests.list(BOB.id, { offset: 0, limit: 10 })).toStrictEqual({
        total: 3,
        more: false,
        records: [b[2], b[1], b[0]],
      });
      expect(await store.requests.usage(ALICE.id)).toStrictEqual({ count: 2, totalCost: 3, lastAt: at(3 * SECOND) });
      expect(await store.requests.usage(BOB.id)).toStrictEqual({ count: 3, totalCost: 7, lastAt: at(5 * SECOND) });
    });

    test('when the store is reopened after append resolved, then the records and the usage are there', async () => {
      const f = fixture();
      const { appended, newestFirst } = alices();
      await seed(f.store, ...appended);
      const reopened = await f.reopen();
      expect(await reopened.requests.list(ALICE.id, { offset: 0, limit: 100 })).toStrictEqual({
        total: 7,
        more: false,
        records: newestFirst,
      });
      expect(await reopened.requests.usage(ALICE.id)).toStrictEqual({
        count: 7,
        totalCost: 10,
        lastAt: at(40 * SECOND),
      });
    });

    test("when a publishable key no longer lists a record's origin, then the record is refused as origin-not-allowed and nothing is stored; a listed origin is stored with its key", async () => {
      const { store } = fixture();
      await seed(store);
      const scope = { origins: ['https://www.example.org'], perMinute: 300, perDay: 100_000, perVisitorPerMinute: 60 };
      const page = { ...token(1, ALICE.id, { kind: 'key', expiresAt: at(HOUR) }), publishable: scope };
      await store.tokens.insert(page);
      const made = (n: number, origin: string) => ({ ...record(n, ALICE.id, at(n * SECOND)), keyId: page.id, origin });
      await store.requests.append(made(1, 'https://www.example.org'), page.id);
      await expect(store.requests.append(made(2, 'https://old.example.org'), page.id)).rejects.toMatchObject({
        name: 'OriginNotAllowedError',
        origin: 'https://old.example.org',
      });
      const listed = await store.requests.list(ALICE.id, { offset: 0, limit: 10 });
      expect(listed.records).toStrictEqual([made(1, 'https://www.example.org')]);
      expect(await store.requests.usage(ALICE.id)).toMatchObject({ count: 1 });
    });

    test('when records come through keys and pages, then list filters by key and usage counts per day and per source', async () => {
      const { store } = fixture();
      const keyA = tokenId(7);
      const keyB = tokenId(8);
      const day = (iso: string) => new Date(iso);
      const r = (n: number, time: string, keyId?: string, origin?: string, cost = 1) => ({
        ...record(n, ALICE.id, day(time), cost),
        ...(keyId ? { keyId } : {}),
        ...(origin ? { origin } : {}),
      });
      await seed(
        store,
        r(1, '2026-11-20T10:00:00.000Z', keyA, 'https://a.example'),
        r(2, '2026-11-20T11:00:00.000Z', keyA, 'https://b.example', 2),
        r(3, '2026-11-21T10:00:00.000Z', keyA, 'https://a.example'),
        r(4, '2026-11-21T11:00:00.000Z', keyB),
        r(5, '2026-11-21T12:00:00.000Z'),
        { ...record(6, BOB.id, day('2026-11-21T12:00:00.000Z')), keyId: keyA, origin: 'https://a.example' },
      );
      const onlyA = await store.requests.list(ALICE.id, { offset: 0, limit: 10, keyId: keyA });
      expect(onlyA.records.map((x) => x.id)).toStrictEqual([recordId(3), recordId(2), recordId(1)]);
      expect(onlyA.total).toBe(3);
      expect(onlyA.records[0]).toMatchObject({ keyId: keyA, origin: 'https://a.example' });
      expect(await store.requests.usageByDay(ALICE.id, '2026-11-20', '2026-11-21', keyA)).toStrictEqual([
        { day: '2026-11-20', count: 2, cost: 3 },
        { day: '2026-11-21', count: 1, cost: 1 },
      ]);
      const sources = await store.requests.usageBySource(ALICE.id, '2026-11-20', '2026-11-21');
      const key = (s: { keyId: string | null; origin: string | null }) => `${s.keyId ?? '-'} ${s.origin ?? '-'}`;
      expect(Object.fromEntries(sources.map((s) => [key(s), [s.count, s.cost]]))).toStrictEqual({
        [`${keyA} https://a.example`]: [2, 2],
        [`${keyA} https://b.example`]: [1, 2],
        [`${keyB} -`]: [1, 1],
        ['- -']: [1, 1],
      });
    });
  });
};
