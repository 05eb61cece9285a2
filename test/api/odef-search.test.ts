// Statistics Canada's ODEF file imported into the running API's store, then searched through the
// generated client: French names found with or without their accents, with the address, postal
// code and coordinates the directory gave (test/import/odef.test.ts describes the fixture).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { importFile } from '../../src/import/import.service.ts';
import type { ImportReport } from '../../src/import/report.ts';
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
      [12, 11],
      [22, 4],
    ]);
    const marquette = report.duplicates[1]!.id;
    const found = await schools('École secondaire Père-Marquette', 'QC');
    expect(found.filter((s) => /marquette/i.test(s.schoolname))).toHaveLength(1);
    expect(found[0]).toEqual({
      schoolid: marquette,
      schoolname: 'École secondaire Père-Marquette',
      stateprovince: 'QC',
      city: 'Montréal',
      image_url: `http://images.test/images/schools/${marquette}.svg`,
      address: '6030, rue Marquette',
      postal_code: 'H2G 2Y3',
      latitude: 45.5446,
      longitude: -73.5836,
      level: 'high',
      lowest_grade: '7',
      highest_grade: '11',
      similarity_score: 1,
      total_count: 1,
    });
  });

  test('when two schools of one name in one city have no Source_Id and two addresses, then both are found', async () => {
    const found = await schools('École Pierre-De-Coubertin', 'QC');
    expect(
      found
        .filter((s) => /coubertin/i.test(s.schoolname))
        .map((s) => [s.schoolname, s.address])
        .sort(),
    ).toEqual([
      ['École Pierre de Coubertin', '8500, rue Pascal-Gagnon'],
      ['École Pierre-De-Coubertin', '8555, rue Pascal-Gagnon'],
    ]);
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
