// ODEF as Statistics Canada builds and publishes it, read for what each facility is: ISCED flags
// for its level and grades, Facility_Type (each province's own words) for its type and tags,
// OLMS_Status (v2.1) for French-language minority schools. Fixtures: real v2 rows (UTF-8 with a
// byte order mark) and v2.1 rows (Windows-1252), each with one bad row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { ImportError } from '../../src/import/errors.ts';
import { importFile } from '../../src/import/import.service.ts';
import { FIXTURES, tempStore, type TempStore } from '../support/temp-store.ts';

const V2 = join(FIXTURES, 'odef-v2-sample.csv');
const V21 = join(FIXTURES, 'odef-v21-sample.csv');
const odef = (provider: string, id: string) => uuidV5(`odef:${provider}:${id}`);
const ON = 'Province of Ontario';
const AB = 'Province of Alberta';
const BC = 'Province of British Columbia';
const QC = 'Province of Québec';
const ESDC = 'Employment and Social Development Canada';

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
});
afterEach(async () => {
  await t.close();
});

function withoutBadRow(path: string, bad: RegExp): string {
  const lines = readFileSync(path)
    .toString('latin1')
    .split(/(?<=\n)/);
  return t.file(`good-${path.split('/').pop()}`, Buffer.from(lines.filter((l) => !bad.test(l)).join(''), 'latin1'));
}

describe('ODEF v2, as built by Statistics Canada (UTF-8 with a byte order mark)', () => {
  it('refuses the file for its bad row, naming the line', async () => {
    const error = await importFile(t.store, V2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 16, reason: 'latitude "455.5" is not a number from -90 to 90' },
    ]);
  });

  it('reads level and grades from the ISCED flags and type and tags from Facility_Type', async () => {
    const report = await importFile(t.store, withoutBadRow(V2, /Typo/));
    expect(report.format).toBe('odef');
    expect(report.encoding).toBe('utf-8');
    expect(report.counts).toEqual({ inserted: 14, updated: 0, unchanged: 0 });
    const find = (provider: string, id: string) => t.store.schools.findById(odef(provider, id));
    // Ontario: ISCED 2 is grades 7–8, so 010 to 2 is an elementary school (PK–8).
    expect(await find(ON, '765031')).toMatchObject({
      name: "Archbishop O'Sullivan Catholic School",
      level: 'elementary',
      lowestGrade: 'PK',
      highestGrade: '8',
      type: 'public',
      tags: ['catholic'],
    });
    // Ontario ISCED 2 and 3: grades 7–12, high.
    expect(await find(ON, '882408')).toMatchObject({ level: 'high', lowestGrade: '7', type: 'private' });
    expect(await find(AB, '313')).toMatchObject({ level: 'other', type: 'public', tags: ['separate'] });
    expect(await find(AB, '26')).toMatchObject({ level: 'elementary', highestGrade: '6', tags: ['francophone'] });
    expect(await find(AB, '12')).toMatchObject({ level: 'high', tags: ['charter'] });
    expect(await find(BC, '7325427')).toMatchObject({ level: 'elementary', lowestGrade: 'PK', highestGrade: 'PK' });
    expect(await find(BC, '3496069')).toMatchObject({ level: 'other', type: 'private' });
    // Québec's secondary school ends at grade 11 (secondary V): 7–11 is high there.
    expect(await find(QC, '24502')).toMatchObject({
      level: 'high',
      lowestGrade: '7',
      highestGrade: '11',
      type: 'public',
    });
    // Only ISCED4Plus: postsecondary, with the control the facility type names.
    expect(await find(QC, '930000')).toMatchObject({
      level: 'postsecondary',
      type: 'postsecondary',
      tags: ['public_control'],
    });
    expect(await find(ESDC, 'BPQF')).toMatchObject({ type: 'postsecondary', tags: ['private_control'] });
    const athabasca = await find(ESDC, 'BUAB');
    expect(athabasca).toMatchObject({ level: 'postsecondary', type: 'postsecondary' });
    expect(athabasca).not.toHaveProperty('tags');
    // Facility_Type "..": a level from the flags, no type.
    const holyGhost = await find('Province of Manitoba', '1653');
    expect(holyGhost).toMatchObject({ level: 'other', lowestGrade: 'K', highestGrade: '9' });
    expect(holyGhost).not.toHaveProperty('type');
  });
});

describe('ODEF v2.1, as published (Windows-1252, Index, OLMS_Status and CMA columns)', () => {
  it('refuses the file for its bad row, naming the line', async () => {
    const error = await importFile(t.store, V21).catch((e: unknown) => e);
    expect((error as ImportError).problems).toEqual([{ line: 5, reason: 'city is empty' }]);
  });

  it('tags an official-language-minority school francophone outside Québec, not in Québec', async () => {
    expect((await importFile(t.store, withoutBadRow(V21, /sans province/))).counts).toEqual({
      inserted: 3,
      updated: 0,
      unchanged: 0,
    });
    expect(await t.store.schools.findById(odef(ON, '902001'))).toMatchObject({
      name: 'École secondaire catholique Garneau',
      level: 'high',
      tags: ['catholic', 'francophone'],
    });
    // In Québec the official-language minority is English.
    const westmount = await t.store.schools.findById(odef(QC, '770001'));
    expect(westmount).toMatchObject({ level: 'high', type: 'public' });
    expect(westmount).not.toHaveProperty('tags');
    expect(await t.store.schools.findById(odef(ON, '902002'))).not.toHaveProperty('tags');
  });
});
