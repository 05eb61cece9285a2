// What a school is (level, grades, type, tags) as the API answers it, through the generated
// client: each field present when the directory gave it, absent (never null) when not.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import type { School } from '../../generated/types.gen.ts';
import { importFile } from '../../src/import/import.service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const FILE = join(import.meta.dirname, '../fixtures/school-kinds.csv');

let app: TestApp;
let client: Awaited<ReturnType<TestApp['userClient']>>['client'];
beforeAll(async () => {
  app = await startTestApp();
  await importFile(app.services.store, FILE);
  await app.services.engine.refresh();
  client = (await app.userClient()).client;
});
afterAll(() => app?.close());

async function first(query: string): Promise<School> {
  const r = await fetchSchoolSearch({ client, query: { query } });
  expect(r.response!.status).toBe(200);
  return r.data!.requestresult.schools[0]!;
}

describe('fetchSchoolSearch: what a school is', () => {
  test('when a public charter high school is found, then it has its level, grades, type and tags', async () => {
    expect(await first('lincoln high school')).toMatchObject({
      schoolname: 'Lincoln High School',
      level: 'high',
      lowest_grade: '9',
      highest_grade: '12',
      type: 'public',
      tags: ['charter'],
    });
  });

  test('when a middle school and a private Catholic school are found, then each has its own level and type', async () => {
    const middle = await first('albertville middle');
    expect(middle).toMatchObject({ level: 'middle', lowest_grade: '7', highest_grade: '8', type: 'public' });
    expect(middle).not.toHaveProperty('tags');
    expect(await first('st benedict catholic')).toMatchObject({
      level: 'elementary',
      lowest_grade: 'PK',
      highest_grade: '8',
      type: 'private',
      tags: ['catholic'],
    });
  });

  test('when a college is found, then it is postsecondary, without grades', async () => {
    const harvard = await first('harvard');
    expect(harvard).toMatchObject({ level: 'postsecondary', type: 'postsecondary', tags: ['private_control'] });
    expect(harvard).not.toHaveProperty('lowest_grade');
    expect(harvard).not.toHaveProperty('highest_grade');
  });

  test('when the directory said nothing of a school, then none of the fields is there, not even as null', async () => {
    const reed = await first('reed college');
    expect(reed.schoolname).toBe('Reed College');
    for (const key of ['level', 'lowest_grade', 'highest_grade', 'type', 'tags']) expect(reed).not.toHaveProperty(key);
  });
});
