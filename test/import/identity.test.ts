// Which rows are one school: only those an id says are, or those that agree on name, city,
// province and every location field they both know. test/fixtures/odef-no-ids.csv is an ODEF
// v2.1 extract without Provider and Source_Id (Windows-1252, CRLF), as a real 11,899-row one was
// imported when 12 of its schools were lost to merges by name:
//   line 2, 3    two "École Sainte-Bernadette" in Saguenay, G7H 3T7 and G7S 1S1
//   line 4, 5    two "École Lambert-Closse" in Montréal
//   line 6, 7    "École Saint-Damase" in the two towns called Saint-Damase (J0H 1J0, G0J 2J0)
//   line 8, 9    one school listed twice, identically (only Index differs)
//   line 10, 11  one school in two spellings ("Jean-XXIII", "Jean XXIII") at one address
//   line 12, 13  two "École Saint-Joseph" in one rural postal code (G0R 3G0), two addresses
//   line 14, 15  two "École Le Sentier" in Sherbrooke known only by their coordinates
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import {
  expectCountsAddUp,
  importChecked as importFile,
  dryRunChecked as dryRunImport,
} from '../support/import-report.ts';
import { searchStore } from '../support/search.ts';
import { FIXTURES, tempStore, type TempStore } from '../support/temp-store.ts';

const NO_IDS = join(FIXTURES, 'odef-no-ids.csv');

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
});
afterEach(async () => {
  await t.close();
});

/** Name and postal code (or address, or coordinates) of every school the search finds for `query`. */
async function found(query: string): Promise<string[]> {
  const { hits } = await searchStore(t.store, query, { limit: 20 });
  return hits
    .map((h) => `${h.school.name} ${h.school.postalCode ?? h.school.address ?? `${h.school.latitude}`}`)
    .sort();
}

describe('an ODEF file without Provider and Source_Id', () => {
  it('keeps schools of one name and city that are at different places apart', async () => {
    const report = await importFile(t.store, NO_IDS);
    expectCountsAddUp(report);
    expect(report).toMatchObject({ rows: 14, schools: 12, problems: [] });
    expect(report.counts).toEqual({ inserted: 12, updated: 0, unchanged: 0 });
    expect(await found('sainte bernadette')).toEqual([
      'École Sainte-Bernadette G7H 3T7',
      'École Sainte-Bernadette G7S 1S1',
    ]);
    expect(await found('lambert closse')).toEqual(['École Lambert-Closse H1G 4L2', 'École Lambert-Closse H1N 1A2']);
    expect(await found('saint damase')).toEqual(['École Saint-Damase G0J 2J0', 'École Saint-Damase J0H 1J0']);
    expect((await searchStore(t.store, 'saint joseph')).hits.map((h) => h.school.address).sort()).toEqual([
      '12, chemin du Roy',
      '41, rue de l’Église',
    ]);
    expect(await found('le sentier')).toEqual(['École Le Sentier 45.381', 'École Le Sentier 45.404']);
    // The key is part of the catalog's contract with its past: an id, once given, stays.
    expect(
      await t.store.schools.findById(uuidV5('name:ecole sainte bernadette|saguenay|QC|postal:G7H3T7')),
    ).toMatchObject({ address: '2155, rue Bégin' });
    expect(
      await t.store.schools.findById(uuidV5('name:ecole le sentier|sherbrooke|QC|at:45.404,-71.892')),
    ).toMatchObject({ latitude: 45.404 });
    // Same postal code, two addresses: each gets the id of all it knows.
    expect(
      await t.store.schools.findById(
        uuidV5(
          'name:ecole saint joseph|saint jean port joli|QC|postal:G0R3G0|address:12 chemin du roy|at:47.2190,-70.2420',
        ),
      ),
    ).toMatchObject({ address: '12, chemin du Roy' });
  });

  it('merges the rows that are one school, naming both lines and why', async () => {
    const report = await importFile(t.store, NO_IDS);
    expect(report.duplicates).toEqual([
      { line: 9, replaces: 8, id: expect.any(String), reason: 'name', identical: true },
      { line: 11, replaces: 10, id: expect.any(String), reason: 'name', identical: false },
    ]);
    expect(await found('notre dame')).toEqual(['École Notre-Dame G5L 4J2']);
    expect(await found('jean xxiii')).toEqual(['École Jean XXIII G1R 2M9']);
  });

  it('with skipInvalid, imports the rest of a file with a bad row, keeping the namesakes apart', async () => {
    const cp1252 = readFileSync(NO_IDS).toString('latin1');
    const bad =
      '2015,École Sans Province,Elementary,..,0,1,1,0,0,0,..,..,..,..,..,Gaspé,zz,..,..,Gaspé,..,..,..,..,..,..\r\n';
    const ontario =
      '2016,École Le Phare,Elementary,..,0,1,1,0,0,0,..,..,..,..,..,Ottawa,Ontario,..,..,Ottawa,..,..,..,..,..,..\r\n';
    const file = t.file('odef-bad.csv', Buffer.from(`${cp1252}${bad}${ontario}`, 'latin1'));
    const report = await importFile(t.store, file, { skipInvalid: true });
    expect(report).toMatchObject({ format: 'odef', rows: 16, schools: 13 });
    expect(report.problems).toEqual([
      { line: 16, reason: expect.stringMatching(/^stateprovince "zz" is not a US state/) },
    ]);
    expect(await found('sainte bernadette')).toHaveLength(2);
    expect((await searchStore(t.store, 'le phare')).hits[0]?.school).toMatchObject({ city: 'Ottawa', state: 'ON' });
  });

  it('keeps every id when imported again, and reports the same in a dry run', async () => {
    const first = await importFile(t.store, NO_IDS);
    const dry = await dryRunImport(t.store.schools, NO_IDS);
    const again = await importFile(t.store, NO_IDS);
    for (const report of [dry, again]) {
      expectCountsAddUp(report);
      expect(report.counts).toEqual({ inserted: 0, updated: 0, unchanged: 12 });
      expect(report.duplicates).toEqual(first.duplicates);
    }
    expect(await t.store.schools.count()).toBe(12);
  });
});
