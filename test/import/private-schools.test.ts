// US private schools: HIFLD's Private Schools layer (real rows) and the NCES PSS public-use file
// (its column names, synthetic rows), each fixture with one bad row. Both name a school by its
// PSS id (PPIN), so the two files update the same schools.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { ImportError } from '../../src/import/errors.ts';
import { dryRunImport, importFile } from '../../src/import/import.service.ts';
import { FIXTURES, tempStore, type TempStore } from '../support/temp-store.ts';

const HIFLD = join(FIXTURES, 'hifld-private-schools-sample.csv');
const PSS = join(FIXTURES, 'pss2021_pu_sample.csv');
const pss = (ppin: string) => uuidV5(`pss:${ppin}`);

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
});
afterEach(async () => {
  await t.close();
});

function withoutBadRow(path: string, bad: RegExp): string {
  const lines = readFileSync(path, 'utf8').split(/(?<=\n)/);
  return t.file(`good-${path.split('/').pop()}`, lines.filter((l) => !bad.test(l)).join(''));
}

describe('the HIFLD private schools layer', () => {
  it('refuses the file for its bad row, naming the line; a dry run counts every row', async () => {
    const error = await importFile(t.store, HIFLD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 9, reason: 'NCESID "634" is not an 8-character PSS id (PPIN)' },
    ]);
    const dry = await dryRunImport(t.store.schools, HIFLD);
    expect(dry.format).toBe('hifld');
    expect([dry.rows, dry.counts.inserted, dry.problems.length]).toEqual([8, 7, 1]);
  });

  it('imports each school as private, grades from the PSS codes (grade = code − 5), ZIP without "NOT AVAILABLE"', async () => {
    const report = await importFile(t.store, withoutBadRow(HIFLD, /LOST ZERO/));
    expect(report.format).toBe('hifld');
    expect(report.counts).toEqual({ inserted: 7, updated: 0, unchanged: 0 });
    expect(await t.store.schools.findById(pss('00000634'))).toStrictEqual({
      id: pss('00000634'),
      name: 'St Benedict Catholic School',
      city: 'Elberta',
      state: 'AL',
      imageUrl: null,
      address: '12786 Illinois St',
      postalCode: '36530',
      latitude: 30.410802285,
      longitude: -87.600789726,
      level: 'elementary',
      lowestGrade: 'PK',
      highestGrade: '8',
      type: 'private',
    });
    // START_GRAD 12, END_GRADE 17: grades 7–12, high by NCES's rule.
    expect(await t.store.schools.findById(pss('02113067'))).toMatchObject({
      lowestGrade: '7',
      highestGrade: '12',
      level: 'high',
    });
    // Ungraded (code 1): no grades; LEVEL_ 3 (combined) gives "other".
    const ungraded = await t.store.schools.findById(pss('A9900129'));
    expect(ungraded).toMatchObject({ level: 'other', type: 'private' });
    expect(ungraded).not.toHaveProperty('lowestGrade');
  });
});

describe('the PSS public-use file', () => {
  it('refuses the file for its bad row, naming the line', async () => {
    const error = await importFile(t.store, PSS).catch((e: unknown) => e);
    expect((error as ImportError).problems).toEqual([
      {
        line: 5,
        reason: expect.stringMatching(
          /^stateprovince "ZZ" is not a US state\/territory or Canadian province\/territory: give its two-letter code/,
        ),
      },
    ]);
  });

  it('imports the survey year’s columns, the physical address where given, RELIG 1 as catholic; updates the HIFLD schools of the same PPIN', async () => {
    await importFile(t.store, withoutBadRow(HIFLD, /LOST ZERO/));
    const report = await importFile(t.store, withoutBadRow(PSS, /TEMPLE ISRAEL/));
    expect(report.format).toBe('pss');
    expect(report.counts).toEqual({ inserted: 0, updated: 3, unchanged: 0 });
    expect(await t.store.schools.findById(pss('00000634'))).toMatchObject({
      name: 'St Benedict Catholic School',
      latitude: 30.410802,
      level: 'elementary',
      lowestGrade: 'PK',
      highestGrade: '8',
      type: 'private',
      tags: ['catholic'],
    });
    // PL_ADD: the school's own address, not its post office box.
    expect(await t.store.schools.findById(pss('A0500005'))).toMatchObject({
      address: '303 Dryer Ave',
      postalCode: '36526',
      level: 'other',
      lowestGrade: 'PK',
      highestGrade: '12',
    });
    expect(await t.store.schools.findById(pss('A0500005'))).not.toHaveProperty('tags');
  });
});
