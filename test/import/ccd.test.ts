// The NCES CCD public school directory in NCES's own layout (ccd_sch_029_<year>) and in the Urban
// Institute's extract, and the EDGE geocode file that locates its schools. Fixtures: the header
// of each publisher's file exactly, a few rows (real ones in the extract and EDGE files,
// synthetic ones in NCES's layout), and one bad row in each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { CCD_SKIPS } from '../../src/import/ccd.reader.ts';
import { EDGE_SKIPS } from '../../src/import/edge-import.ts';
import { joinLocations, readEdgeRows, type EdgeLocation } from '../../src/import/edge.reader.ts';
import { ImportError } from '../../src/import/errors.ts';
import { dryRunImport, importFile } from '../../src/import/import.service.ts';
import { readDrafts } from '../../src/import/read.ts';
import { searchStore } from '../support/search.ts';
import { FIXTURES, tempStore, type TempStore } from '../support/temp-store.ts';

const OFFICIAL = join(FIXTURES, 'ccd_sch_029_1920_sample.csv');
const URBAN = join(FIXTURES, 'ccd-urban-sample.csv');
const EDGE = join(FIXTURES, 'edge-geocode-sample.csv');
const nces = (ncessch: string) => uuidV5(`nces:${ncessch}`);

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
});
afterEach(async () => {
  await t.close();
});

/** The fixture without its bad row (the one line matching `bad`), as a file in the temporary directory. */
function withoutBadRow(path: string, bad: RegExp): string {
  const lines = readFileSync(path, 'utf8').split(/(?<=\n)/);
  return t.file(`good-${path.split('/').pop()}`, lines.filter((l) => !bad.test(l)).join(''));
}

describe('the CCD directory in NCES layout', () => {
  it('refuses the file for its bad row, naming the line, and writes nothing', async () => {
    const error = await importFile(t.store, OFFICIAL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 9, reason: 'NCESSCH "1011100" is not a 12-digit NCES school id' },
    ]);
    expect(await t.store.schools.count()).toBe(0);
    const dry = await dryRunImport(t.store.schools, OFFICIAL);
    expect(dry.format).toBe('ccd');
    expect(dry.rows).toBe(9);
    expect(dry.counts.inserted + dry.problems.length + Object.values(dry.skipped).reduce((a, b) => a + b)).toBe(9);
  });

  it('imports open schools with their grades, level, type, charter flag and address; skips closed and future ones', async () => {
    const report = await importFile(t.store, withoutBadRow(OFFICIAL, /Broken Id School/));
    expect(report.format).toBe('ccd');
    expect(report.rows).toBe(8);
    expect(report.counts).toEqual({ inserted: 6, updated: 0, unchanged: 0 });
    expect(report.skipped).toEqual({ [CCD_SKIPS.closed]: 1, [CCD_SKIPS.future]: 1 });
    expect(await t.store.schools.findById(nces('010000500870'))).toStrictEqual({
      id: nces('010000500870'),
      name: 'Albertville Middle School',
      city: 'Albertville',
      state: 'AL',
      imageUrl: null,
      address: '600 E Alabama Ave',
      postalCode: '35950-2532',
      level: 'middle',
      lowestGrade: '7',
      highestGrade: '8',
      type: 'public',
    });
    // KG-04, CHARTER_TEXT Yes; names as published (ALL CAPS until display casing is wired).
    expect(await t.store.schools.findById(nces('250002800590'))).toMatchObject({
      name: 'KIPP Academy Lynn Elementary',
      level: 'elementary',
      lowestGrade: 'K',
      highestGrade: '4',
      tags: ['charter'],
    });
    // KG-12 is "other"; a new school (status New) is open.
    expect(await t.store.schools.findById(nces('010111002003'))).toMatchObject({ level: 'other', lowestGrade: 'K' });
    // Adult education only: no grade, no level.
    const adult = await t.store.schools.findById(nces('010111002002'));
    expect(adult).toMatchObject({ type: 'public' });
    expect(adult).not.toHaveProperty('level');
    expect(adult).not.toHaveProperty('lowestGrade');
    expect(await t.store.schools.findById(nces('010000500900'))).toBeNull();
    expect((await importFile(t.store, withoutBadRow(OFFICIAL, /Broken Id School/))).counts).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 6,
    });
  });
});

describe('the CCD directory as the Urban Institute extracts it', () => {
  it('refuses the file for its bad row, naming the line', async () => {
    const error = await importFile(t.store, URBAN).catch((e: unknown) => e);
    expect((error as ImportError).problems).toEqual([
      {
        line: 10,
        reason: expect.stringMatching(
          /^stateprovince "XX" is not a US state\/territory or Canadian province\/territory: give its two-letter code/,
        ),
      },
    ]);
  });

  it('imports every school, Pre-K and Kindergarten read as PK and K, ungraded ones without grades, ids kept with their leading zero', async () => {
    const report = await importFile(t.store, withoutBadRow(URBAN, /Nowhere School/));
    expect(report.format).toBe('ccd');
    expect(report.counts).toEqual({ inserted: 8, updated: 0, unchanged: 0 });
    expect(await t.store.schools.findById(nces('010000501616'))).toMatchObject({
      name: 'Albertville Kindergarten and PreK',
      lowestGrade: 'PK',
      highestGrade: 'K',
      level: 'elementary',
      type: 'public',
    });
    expect(await t.store.schools.findById(nces('120111001194'))).toMatchObject({
      name: 'Lincoln High School',
      city: 'Tallahassee',
      level: 'high',
    });
    const excel = await t.store.schools.findById(nces('050042001638'));
    expect(excel).toMatchObject({ name: 'The Excel Center', type: 'public' });
    expect(excel).not.toHaveProperty('lowestGrade');
    // NCES's own layout and the extract name one school alike: the same id.
    expect(await t.store.schools.findById(nces('010000500870'))).toMatchObject({ name: 'Albertville Middle School' });
  });
});

describe('the EDGE geocode file', () => {
  it('gives their location to the schools already imported, skips ids the store does not have, creates none', async () => {
    await importFile(t.store, withoutBadRow(URBAN, /Nowhere School/));
    const before = await t.store.schools.count();
    const good = withoutBadRow(EDGE, /BAD ID/);
    const dry = await dryRunImport(t.store.schools, good);
    expect(dry.counts).toEqual({ inserted: 0, updated: 3, unchanged: 0 });
    const report = await importFile(t.store, good);
    expect(report.format).toBe('edge');
    expect(report.rows).toBe(5);
    expect(report.counts).toEqual({ inserted: 0, updated: 3, unchanged: 0 });
    expect(report.skipped).toEqual({ [EDGE_SKIPS.unknown]: 2 });
    expect(await t.store.schools.count()).toBe(before);
    expect(await t.store.schools.findById(nces('010000500870'))).toStrictEqual({
      id: nces('010000500870'),
      name: 'Albertville Middle School',
      city: 'Albertville',
      state: 'AL',
      imageUrl: null,
      address: '600 E Alabama Ave',
      postalCode: '35950-2336',
      latitude: 34.260194,
      longitude: -86.206174,
      level: 'middle',
      lowestGrade: '7',
      highestGrade: '8',
      type: 'public',
    });
    expect((await searchStore(t.store, 'lincoln high school')).hits[0]!.school).toMatchObject({
      latitude: 30.436229,
      longitude: -84.211305,
    });
    expect((await importFile(t.store, good)).counts).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
  });

  it('refuses the file for its bad row, naming the line, and writes nothing', async () => {
    await importFile(t.store, withoutBadRow(URBAN, /Nowhere School/));
    const error = await importFile(t.store, EDGE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 7, reason: 'NCESSCH "01000050087X" is not a 12-digit NCES school id' },
    ]);
    expect(await t.store.schools.findById(nces('010000500870'))).not.toHaveProperty('latitude');
  });

  it('joins in memory for a seed builder: the drafts of a CCD file with the EDGE locations', async () => {
    const { drafts } = await readDrafts(withoutBadRow(URBAN, /Nowhere School/));
    const locations = new Map<string, EdgeLocation>();
    for await (const row of readEdgeRows(readFileSync(withoutBadRow(EDGE, /BAD ID/)), () => undefined))
      if (!('error' in row)) locations.set(row.key, row.location);
    const joined = joinLocations(drafts, locations);
    expect(joined.joined).toBe(3);
    expect(joined.problems).toEqual([]);
    expect(joined.drafts).toHaveLength(drafts.length);
    expect(joined.drafts.find((d) => d.id === nces('010000500871'))).toMatchObject({
      address: '402 E McCord Ave',
      latitude: 34.262154,
      sourceKey: 'nces:010000500871',
      level: 'high',
    });
  });
});
