// --skip-invalid on a file in each publisher's layout (and a JSON array through a column
// mapping), each with one bad row: the good rows are written, the bad one is listed by its line
// (a JSON array: by its element), and the report's counts add up to the file's rows.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { importFile } from '../../src/import/import.service.ts';
import type { ImportFormat } from '../../src/import/format.ts';
import { expectCountsAddUp } from '../support/import-report.ts';
import { REPO } from '../support/processes.ts';
import { tempStore, type TempStore } from '../support/temp-store.ts';

const FIXTURES = join(REPO, 'test/fixtures');

let t: TempStore;
let dir: string;
beforeEach(async () => {
  t = await tempStore();
  dir = mkdtempSync(join(tmpdir(), 'school-search-skip-'));
});
afterEach(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The fixture with one more row, whose name is empty: a bad row at the end (line `rows + 2`). */
function withNamelessRow(file: string): string {
  const bytes = readFileSync(join(FIXTURES, file));
  const lines = bytes
    .toString('latin1')
    .split(/\r?\n/)
    .filter((line) => line !== '');
  const last = lines.at(-1)!.split(',');
  last[0] = '9999';
  last[1] = '';
  const path = join(dir, file);
  writeFileSync(path, Buffer.from(`${lines.join('\r\n')}\r\n${last.join(',')}\r\n`, 'latin1'));
  return path;
}

/** Each fixture, its format as detected, and the line of its bad row. */
const LAYOUTS: Array<[name: string, file: string, format: ImportFormat, badLine: number]> = [
  ['NCES CCD (ccd_sch_029)', 'ccd_sch_029_1920_sample.csv', 'ccd', 0],
  ['NCES CCD (Urban Institute extract)', 'ccd-urban-sample.csv', 'ccd', 0],
  ['NCES PSS public-use file', 'pss2021_pu_sample.csv', 'pss', 0],
  ['HIFLD private schools', 'hifld-private-schools-sample.csv', 'hifld', 0],
  ['ODEF v2 (full, with ids)', 'odef-v2-sample.csv', 'odef', 0],
  ['ODEF v2.1 (full, with ids)', 'odef-v21-sample.csv', 'odef', 0],
  // Its rows are all good: one without a name is added (withNamelessRow).
  ['ODEF without Provider/Source_Id', 'odef-no-ids.csv', 'odef', -1],
  ['NCES IPEDS', 'ipeds-sample.csv', 'ipeds', 5],
];

describe('import --skip-invalid, a file in each layout with a bad row', () => {
  test.each(LAYOUTS)(
    '%s: the good rows are written, the bad one listed by line, the counts add up',
    async (_, file, format, badLine) => {
      const path = badLine === -1 ? withNamelessRow(file) : join(FIXTURES, file);
      await expect(importFile(t.store, path)).rejects.toThrow(/line \d+/);
      expect(await t.store.schools.count()).toBe(0);
      const report = await importFile(t.store, path, { skipInvalid: true });
      expect(report.format).toBe(format);
      expect(report.skipInvalid).toBe(true);
      expect(report.problems.length).toBeGreaterThanOrEqual(1);
      for (const problem of report.problems) expect(problem.line).toBeGreaterThan(1);
      if (badLine > 0) expect(report.problems.map((p) => p.line)).toEqual([badLine]);
      expectCountsAddUp(report);
      expect(report.schools).toBeGreaterThan(0);
      expect(await t.store.schools.count()).toBe(report.schools);
    },
  );

  test('NCES EDGE (locations only): the good rows locate their schools, the bad one is listed, the counts add up', async () => {
    await importFile(t.store, join(FIXTURES, 'ccd_sch_029_1920_sample.csv'), { skipInvalid: true });
    const path = join(FIXTURES, 'edge-geocode-sample.csv');
    await expect(importFile(t.store, path)).rejects.toThrow(/line \d+/);
    const report = await importFile(t.store, path, { skipInvalid: true });
    expect(report.format).toBe('edge');
    expect(report.problems.length).toBeGreaterThanOrEqual(1);
    expectCountsAddUp(report);
    expect(report.counts.updated).toBeGreaterThan(0);
  });

  test('a JSON array through a column mapping: namesakes at two postcodes stay two, the bad element is listed by its element and line', async () => {
    const path = join(FIXTURES, 'mapped-schools.json');
    const mapping = {
      columns: {
        schoolname: 'Facility_Name',
        city: 'Town',
        stateprovince: 'Province',
        postal_code: 'Postcode',
        source_id: 'Board_Id',
        level: 'Grades',
      },
      idPrefix: 'example-board',
    } as const;
    const report = await importFile(t.store, path, { mapping, skipInvalid: true });
    expect(report.rows).toBe(4);
    expect(report.counts.inserted).toBe(3);
    expect(report.problems).toEqual([expect.objectContaining({ element: 4, reason: 'city is empty' })]);
    expect(report.problems[0]!.line).toBeGreaterThan(20);
    expectCountsAddUp(report);
  });
});
