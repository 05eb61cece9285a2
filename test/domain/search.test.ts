// SearchService, CatalogService and HealthService on the fakes: every search metered, the engine
// asked what the caller asked, a school by id, and readiness.
import { describe, expect, test } from 'vitest';
import { NotFoundError, StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import { SEARCH_COST } from '../../src/domain/search/search.service.ts';
import { fakeServices } from '../support/fakes/services.ts';

describe('search', () => {
  test('when a user searches, then the engine gets the planned query, state and page, and the answer carries its record', async () => {
    const { services, signedIn, engine, clock } = fakeServices();
    const { principal } = await signedIn();
    const outcome = await services.search.search(principal, {
      query: 'Harvard Univ',
      stateCode: 'MA',
      offset: 0,
      limit: 5,
    });
    expect(engine.queries).toHaveLength(1);
    expect(engine.queries[0]).toMatchObject({ stateCode: 'MA', offset: 0, limit: 5 });
    expect(engine.queries[0]!.plan.words.length).toBeGreaterThan(0);
    expect(outcome.hits.map((h) => [h.school.name, h.score])).toEqual([['Harvard University', 1]]);
    expect(outcome.record).toMatchObject({
      userId: principal.userId,
      requestMade: 'search_schools:Harvard Univ',
      cost: SEARCH_COST,
      timeMade: clock.now(),
    });
  });

  test("when a user searches twice, then both records are in their history and usage, and not in another user's", async () => {
    const { services, signedIn } = fakeServices();
    const ada = await signedIn('ada@example.com');
    const bob = await signedIn('bob@example.com');
    const first = await services.search.search(ada.principal, { query: 'yale', offset: 0, limit: 25 });
    const second = await services.search.search(ada.principal, { query: 'yale', offset: 25, limit: 25 });
    const history = await services.account.history(ada.principal, { offset: 0, limit: 25 });
    expect(history.records.map((r) => r.id).sort()).toEqual([first.record.id, second.record.id].sort());
    expect((await services.account.account(ada.principal)).usage).toMatchObject({
      count: 2,
      totalCost: 2 * SEARCH_COST,
    });
    expect((await services.account.history(bob.principal, { offset: 0, limit: 25 })).total).toBe(0);
  });
});

describe('request records', () => {
  test('when a user searches, then the record has a time-ordered id (UUID version 7) of when it was made', async () => {
    const { services, signedIn } = fakeServices();
    const { principal } = await signedIn();
    const before = Date.now();
    const { record } = await services.search.search(principal, { query: 'yale', offset: 0, limit: 25 });
    expect(record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const madeAt = Number.parseInt(record.id.replace('-', '').slice(0, 12), 16);
    expect(madeAt).toBeGreaterThanOrEqual(before);
    expect(madeAt).toBeLessThanOrEqual(Date.now());
  });
});

describe('catalog and health', () => {
  test('when a school is asked by id in any case, then it is found; an unknown id is NotFoundError', async () => {
    const { services, store } = fakeServices();
    const school = { id: 'ab12', name: 'Rice University', city: 'Houston', state: 'TX', imageUrl: null };
    await store.schools.upsertMany([{ ...school, aliases: [], prominence: 1 }]);
    expect(await services.catalog.school('AB12')).toEqual(school);
    await expect(services.catalog.school('ff00')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('when the store answers, then readiness names it; when it does not, then its error passes through', async () => {
    const { services, store } = fakeServices();
    expect(await services.health.readiness()).toEqual({ store: 'memory' });
    store.down = new StoreUnavailableError();
    await expect(services.health.readiness()).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
