// GET /v1/schools/{schoolId} through the generated client: a school's whole record, found by the
// schoolid a search gave; not metered; 404 for an unknown id, 400 for a malformed one, 401 without
// a token. On the embedded store (the MongoDB store runs the same file under test:ferretdb).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyData, fetchSchoolSearch, getSchool } from '../../generated/sdk.gen.ts';
import { zSchoolRecord } from '../../generated/zod.gen.ts';
import { importFile } from '../../src/import/import.service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

// Its one bad row (a state "ZZ") is left out.
const IPEDS = join(import.meta.dirname, '../fixtures/ipeds-sample.csv');

let app: TestApp;
let client: Awaited<ReturnType<TestApp['userClient']>>['client'];
let importedBetween: { from: number; to: number };

beforeAll(async () => {
  app = await startTestApp();
  const from = Date.now();
  await importFile(app.services.store, IPEDS, { skipInvalid: true });
  importedBetween = { from, to: Date.now() };
  await app.services.engine.refresh();
  client = (await app.userClient()).client;
});
afterAll(() => app?.close());

async function idOf(query: string): Promise<string> {
  const r = await fetchSchoolSearch({ client, query: { query } });
  return r.data!.requestresult.schools[0]!.schoolid;
}

describe('getSchool (GET /v1/schools/{schoolId})', () => {
  test('when a school found by a search is asked for, then its whole record comes back', async () => {
    const id = await idOf('harvard');
    const r = await getSchool({ client, path: { schoolId: id } });
    expect(r.response!.status).toBe(200);
    const record = zSchoolRecord.parse(r.data);
    expect(record).toMatchObject({
      schoolid: id,
      schoolname: 'Harvard University',
      stateprovince: 'MA',
      city: 'Cambridge',
      address: 'Massachusetts Hall',
      postal_code: '02138',
      level: 'postsecondary',
      type: 'postsecondary',
      source_ids: ['ipeds:166027'],
    });
    expect(record.image_url).toMatch(new RegExp(`/images/schools/${id}\\.svg$`));
    expect(Array.isArray(record.aliases)).toBe(true);
    const updated = Date.parse(record.updated_at);
    expect(updated).toBeGreaterThanOrEqual(importedBetween.from - 1000);
    expect(updated).toBeLessThanOrEqual(importedBetween.to + 1000);
  });

  test('when the school has alternative names, then the record lists them', async () => {
    const r = await getSchool({ client, path: { schoolId: await idOf('university of california berkeley') } });
    expect(r.data!.schoolname).toBe('University of California-Berkeley');
    // As the importer derived them (college-aliases.ts): the search's forms, folded.
    expect(r.data!.aliases).toEqual(expect.arrayContaining(['uc berkeley']));
  });

  test('when the id is in upper case, then the same school is found', async () => {
    const id = await idOf('harvard');
    const r = await getSchool({ client, path: { schoolId: id.toUpperCase() } });
    expect(r.response!.status).toBe(200);
    expect(r.data!.schoolid).toBe(id);
  });

  test('when the same file is imported again unchanged, then updated_at stays', async () => {
    const id = await idOf('harvard');
    const before = (await getSchool({ client, path: { schoolId: id } })).data!.updated_at;
    await importFile(app.services.store, IPEDS, { skipInvalid: true });
    const after = (await getSchool({ client, path: { schoolId: id } })).data!.updated_at;
    expect(after).toBe(before);
  });

  test('when records are read, then nothing is metered', async () => {
    const id = await idOf('harvard');
    const before = (await fetchMyData({ client })).data!.usage.request_count;
    for (let i = 0; i < 3; i++) await getSchool({ client, path: { schoolId: id } });
    expect((await fetchMyData({ client })).data!.usage.request_count).toBe(before);
  });

  test('when no school has the id, then 404 not-found', async () => {
    const r = await getSchool({ client, path: { schoolId: '00000000-0000-5000-8000-000000000000' } });
    expectProblem(r, 404, 'not-found');
  });

  test('when the id is not a UUID, then 400 naming schoolId', async () => {
    const r = await getSchool({ client, path: { schoolId: 'harvard' }, ...unchecked });
    const problem = expectProblem(r, 400, 'validation-error');
    expect(problem.errors?.map((e) => e.name)).toContain('schoolId');
  });

  test('when no token is sent, then 401', async () => {
    const id = await idOf('harvard');
    const r = await getSchool({ client: app.client(), path: { schoolId: id } });
    expectProblem(r, 401, 'unauthorized');
  });
});
