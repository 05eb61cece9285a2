// A search retried with its Idempotency-Key (issue 43, M3): the retry is answered with the first
// search's request record and metered once, on every store this run has; a key sent with
// another search is a 409, and a key of the wrong form a 400.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyData, fetchMyRequests, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.seed([
    { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' },
    { schoolname: 'Yale University', city: 'New Haven', stateprovince: 'CT' },
  ]);
});
afterAll(() => app.close());

const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

describe('fetchSchoolSearch with an Idempotency-Key', () => {
  test('when a search is sent again with its key, then the retry carries the first record and is metered once', async () => {
    const user = await app.userClient();
    const key = randomUUID();
    const first = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' }, ...keyed(key) });
    const again = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' }, ...keyed(key) });
    expect(first.response!.status).toBe(200);
    expect(again.response!.status).toBe(200);
    expect(again.data!.apirequest).toEqual(first.data!.apirequest);
    expect(again.data!.requestresult.schools.map((s) => s.schoolname)).toEqual(['Harvard University']);
    const account = (await fetchMyData({ client: user.client })).data!;
    expect(account.usage.request_count).toBe(1);
    const history = (await fetchMyRequests({ client: user.client })).data!;
    expect(history.total_count).toBe(1);
    expect(history.requests.map((r) => r.tid)).toEqual([first.data!.apirequest.tid]);
  });

  test('when retries with one key race, then one record is stored, and every answer carries it', async () => {
    const user = await app.userClient();
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetchSchoolSearch({ client: user.client, query: { query: 'yale' }, ...keyed(key) }),
      ),
    );
    expect(answers.map((a) => a.response!.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.data!.apirequest.tid)).size).toBe(1);
    expect((await fetchMyData({ client: user.client })).data!.usage.request_count).toBe(1);
  });

  test('when searches send different keys, or none, then each is metered', async () => {
    const user = await app.userClient();
    await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' }, ...keyed(randomUUID()) });
    await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' }, ...keyed(randomUUID()) });
    await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
    await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
    expect((await fetchMyData({ client: user.client })).data!.usage.request_count).toBe(4);
  });

  test('when two users send the same key, then each has a search of their own', async () => {
    const [one, two] = [await app.userClient(), await app.userClient()];
    const key = 'shared-key-1';
    const a = await fetchSchoolSearch({ client: one.client, query: { query: 'harvard' }, ...keyed(key) });
    const b = await fetchSchoolSearch({ client: two.client, query: { query: 'yale' }, ...keyed(key) });
    expect(b.response!.status).toBe(200);
    expect(b.data!.apirequest.tid).not.toBe(a.data!.apirequest.tid);
    expect((await fetchMyData({ client: two.client })).data!.usage.request_count).toBe(1);
  });

  test('when a key is sent again with another search (words, filter or page), then it is a 409 idempotency-key-reused, and nothing more is metered', async () => {
    const user = await app.userClient();
    const key = randomUUID();
    await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' }, ...keyed(key) });
    for (const query of [{ query: 'yale' }, { query: 'harvard', stateCode: 'MA' }, { query: 'harvard', offset: 5 }]) {
      const reused = await fetchSchoolSearch({ client: user.client, query, ...keyed(key) });
      expectProblem(reused, 409, 'idempotency-key-reused');
    }
    expect((await fetchMyData({ client: user.client })).data!.usage.request_count).toBe(1);
  });

  test('when the key is empty, too long or holds a space, then it is a 400 naming the header', async () => {
    const user = await app.userClient();
    for (const key of ['', 'x'.repeat(256), 'two words']) {
      const r = await fetchSchoolSearch({
        client: user.client,
        query: { query: 'harvard' },
        ...keyed(key),
        ...unchecked,
      });
      const problem = expectProblem(r, 400, 'validation-error');
      expect(JSON.stringify(problem.errors ?? problem.detail).toLowerCase(), JSON.stringify(key)).toContain(
        'idempotency-key',
      );
    }
    expect((await fetchMyData({ client: user.client })).data!.usage.request_count).toBe(0);
  });
});
