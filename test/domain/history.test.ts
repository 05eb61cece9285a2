// AccountService's history and usage on the fakes: paging by offset and by cursor, a cursor the
// API did not issue, the retention's cut-off, and usage per UTC day.
import { describe, expect, test } from 'vitest';
import { InvalidInputError } from '../../src/domain/shared/errors.ts';
import { decodeCursor, encodeCursor } from '../../src/domain/metering/history-cursor.ts';
import { keepDays, purgeExpired } from '../../src/domain/metering/retention.ts';
import { fakeServices } from '../support/fakes/services.ts';

const DAY = 86_400_000;

async function searches(n: number, options: Parameters<typeof fakeServices>[0] = {}) {
  const f = fakeServices(options);
  const { principal } = await f.signedIn();
  for (let i = 0; i < n; i++) {
    await f.services.search.search(principal, { query: `q${i}`, offset: 0, limit: 1 });
    f.clock.advance(DAY / 4);
  }
  return { ...f, principal };
}

describe('history', () => {
  test('when paged by cursor, then the pages join to the whole history newest first, the last with no next cursor', async () => {
    const { services, principal } = await searches(7);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const view = await services.account.history(principal, { offset: 0, limit: 3, cursor });
      expect(view.total).toBe(7);
      seen.push(...view.records.map((r) => r.requestMade));
      if (view.nextCursor === null) break;
      cursor = view.nextCursor;
    }
    expect(seen).toEqual(['q6', 'q5', 'q4', 'q3', 'q2', 'q1', 'q0'].map((q) => `search_schools:${q}`));
  });

  test('when a cursor was not issued by the API, then InvalidInputError; an issued one decodes to its position', () => {
    const position = { timeMade: new Date('2026-01-15T12:00:00.000Z'), id: 'a1b2-c3' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    const tampered = Buffer.from('h1|2026-01-15T12:00:00.000Z|x|y').toString('base64url');
    expect(() => decodeCursor(tampered)).toThrow(InvalidInputError);
    expect(() => decodeCursor('not-a-cursor')).toThrow(InvalidInputError);
  });

  test('when a retention keeps 1 day, then older records are neither listed nor counted, purged, and usage still counts them', async () => {
    const { services, principal, store, clock } = await searches(12, { retention: keepDays(1) });
    const keptFrom = keepDays(1).keptFrom(clock.now())!;
    const view = await services.account.history(principal, { offset: 0, limit: 25 });
    expect(view.records.every((r) => r.timeMade.toISOString().slice(0, 10) >= keptFrom)).toBe(true);
    expect(view.total).toBe(view.records.length);
    expect(view.total).toBeLessThan(12);
    expect(await purgeExpired(store.requests, keepDays(1), clock.now())).toBe(12 - view.total);
    expect((await services.account.account(principal)).usage.count).toBe(12);
  });

  test('when usage is asked for N days, then one entry per day with a search, UTC days, inside the range', async () => {
    const { services, principal, clock } = await searches(8);
    const usage = await services.account.usageByDay(principal, 30);
    expect(usage.to).toBe(clock.now().toISOString().slice(0, 10));
    expect(usage.days.reduce((n, d) => n + d.count, 0)).toBe(8);
    expect(usage.days.every((d) => d.day >= usage.from && d.day <= usage.to)).toBe(true);
  });
});
