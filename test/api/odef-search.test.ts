// Statistics Canada's ODEF file imported into the running API's store, then searched through the
// generated client: French names found with or without their accents, with the address, postal
// code and coordinates the directory gave (test/import/odef.test.ts describes the fixture).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { importFile, type ImportReport } from '../../src/import/import.service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const ODEF_FILE = join(import.meta.dirname, '../fixtures/odef-sample.csv');

let app: TestApp;
let client: Awaited<ReturnType<TestApp['userClient']>>['client'];
let report: ImportReport;
beforeAll(async () => {
  app = await startTestApp();
  report = await importFile(app.services.store, ODEF_FILE);
  await app.services.engine.refresh();
  client = (await app.userClient()).client;
});
afterAll(() => app?.close());

async function schools(query: string, stateCode?: string) {
  const r = await fetchSchoolSearch({
    client,
    query: { query, ...(stateCode ? { stateCode: stateCode as never } : {}) },
  });
  expect(r.response!.status).toBe(200);
  return r.data!.requestresult.schools;
}

describe('fetchSchoolSearch on an imported ODEF file', () => {
  test('when searching the merged duplicate by its accented name, then it is found once, as its later row, with its location', async () => {
    expect(report.duplicates.map((d) => [d.line, d.replaces])).toEqual([
      [22, 4],
      [24, 9],
    ]);
    const found = await schools('École Pierre-De-Coubertin', 'QC');
    expect(found.filter((s) => /coubertin/i.test(s.schoolname))).toHaveLength(1);
    expect(found[0]).toEqual({
      schoolid: report.duplicates[1]!.id,
      schoolname: 'École Pierre-De-Coubertin',
      stateprovince: 'QC',
      city: 'Montréal',
      image_url: `http://images.test/images/schools/${report.duplicates[1]!.id}.svg`,
      address: '8555, rue Pascal-Gagnon',
      postal_code: 'H1P 1Y6',
      latitude: 45.6052,
      longitude: -73.5912,
      level: 'elementary',
      lowest_grade: 'K',
      highest_grade: '6',
      similarity_score: 1,
      total_count: 1,
    });
  });

  test('when searching without the accents, then the accented school is found with its address, postal code and coordinates', async () => {
    const [marquette] = await schools('ecole secondaire pere marquette');
    expect(marquette).toMatchObject({
      schoolname: 'École secondaire Père-Marquette',
      city: 'Montréal',
      stateprovince: 'QC',
      address: '6030, rue Marquette',
      postal_code: 'H2G 2Y3',
      latitude: 45.5446,
      longitude: -73.5836,
    });
    const [assomption] = await schools('collège de l’assomption');
    expect(assomption).toMatchObject({
      schoolname: 'Collège de l’Assomption',
      city: 'L’Assomption',
      address: '270, boulevard de l’Ange-Gardien',
    });
  });

  test('when a school has no coordinates in the file, then the result has no latitude or longitude, but its address', async () => {
    const [neiges] = await schools('notre-dame-des-neiges');
    expect(neiges).toMatchObject({
      schoolname: 'École Notre-Dame-des-Neiges',
      address: '5309, chemin de la Côte-des-Neiges',
      postal_code: 'H3T 1Y5',
    });
    expect(neiges).not.toHaveProperty('latitude');
    expect(neiges).not.toHaveProperty('longitude');
  });
});
