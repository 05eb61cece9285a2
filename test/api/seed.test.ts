// The committed seed, loaded the way `npm start` loads it, answers the README's examples.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { importFile } from '../../src/import/import.service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let client: Awaited<ReturnType<TestApp['userClient']>>['client'];
beforeAll(async () => {
  app = await startTestApp();
  await importFile(app.services.store, 'data/seed/ipeds-hd2022.ndjson');
  await app.services.engine.refresh();
  client = (await app.userClient()).client;
});
afterAll(() => app?.close());

async function top(query: string, stateCode?: string) {
  const r = await fetchSchoolSearch({
    client,
    query: { query, ...(stateCode ? { stateCode: stateCode as never } : {}) },
  });
  expect(r.response!.status).toBe(200);
  return r.data!.requestresult;
}

describe('fetchSchoolSearch on the committed seed', () => {
  test('when searching "harvard", then Harvard University comes first, with the address, ZIP and coordinates of the directory', async () => {
    const result = await top('harvard');
    expect(result.schools[0]).toMatchObject({
      schoolname: 'Harvard University',
      city: 'Cambridge',
      stateprovince: 'MA',
      address: 'Massachusetts Hall',
      postal_code: '02138',
      latitude: 42.374471,
      longitude: -71.118313,
    });
  });

  test('when searching an alias, then its school is found', async () => {
    expect((await top('mit')).schools[0]!.schoolname).toBe('Massachusetts Institute of Technology');
  });

  test('when searching a very common word, then the total is large and the page is full', async () => {
    const result = await top('college');
    expect(result.total_count).toBeGreaterThan(1000);
    expect(result.schools).toHaveLength(25);
  });

  test('when a state narrows a common word, then every hit is in that state', async () => {
    const result = await top('university', 'PR');
    expect(result.total_count).toBeGreaterThan(5);
    expect(new Set(result.schools.map((s) => s.stateprovince))).toEqual(new Set(['PR']));
  });
});
