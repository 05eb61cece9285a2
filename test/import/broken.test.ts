// A file with any bad row changes nothing, and the error names every bad row's line and reason.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { nameSortKey } from '../../src/domain/shared/normalize.ts';
import { STATE_FORMS } from '../../src/domain/catalog/state-names.ts';
import { ImportError, ImportSourceError, type RowProblem } from '../../src/import/errors.ts';
import type { ImportOptions } from '../../src/import/import.service.ts';
import {
  expectCountsAddUp,
  importChecked as importFile,
  dryRunChecked as dryRunImport,
} from '../support/import-report.ts';
import { FIXTURES, tempStore, type TempStore } from '../support/temp-store.ts';

const HEADER = 'schoolname,city,stateprovince,schoolid,image_url';
const GOOD = 'Reed College,Portland,OR,,';
const reedId = uuidV5(`name:${nameSortKey('Reed College')}|portland|OR`);

/** The reason a row with an unknown state/province is refused. */
const notAState = (given: string) =>
  `stateprovince "${given}" is not a US state/territory or Canadian province/territory: give ${STATE_FORMS}`;

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
  // Something already in the store, to show that a rejected file leaves it as it was.
  await importFile(t.store, join(FIXTURES, 'schools.ndjson'));
});
afterEach(async () => {
  await t.close();
});

/** Imports `content` and returns the ImportError, checking that nothing was written. */
async function rejection(name: string, content: string | Buffer, options: ImportOptions = {}): Promise<ImportError> {
  const before = await t.store.schools.count();
  const error = await importFile(t.store, t.file(name, content), options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  expect(await t.store.schools.count()).toBe(before);
  expect(before).toBe(3);
  return error as ImportError;
}

async function rejected(
  name: string,
  content: string | Buffer,
  options: ImportOptions = {},
): Promise<readonly RowProblem[]> {
  return (await rejection(name, content, options)).problems;
}

describe('a CSV file with bad rows', () => {
  it('is rejected whole, listing every bad row with its line', async () => {
    const problems = await rejected(
      'bad.csv',
      [
        HEADER,
        GOOD,
        'Foo College,Springfield,XX,,',
        ' ,Springfield,IL,,',
        'Bar College,Springfield,IL,not-a-uuid,',
        '"Baz',
        'College",Springfield,IL,,ftp://baz.example/logo.png',
        '',
        'Qux College,Springfield,IL',
        'Quux College,Springfield,IL,,,extra',
      ].join('\n'),
    );
    expect(problems).toEqual([
      { line: 3, reason: notAState('XX') },
      { line: 4, reason: 'schoolname is empty' },
      { line: 5, reason: 'schoolid "not-a-uuid" is not a UUID' },
      { line: 6, reason: 'image_url "ftp://baz.example/logo.png" is not an http(s) URL' },
      { line: 9, reason: 'has 3 fields; the header has 5' },
      { line: 10, reason: 'has 6 fields; the header has 5' },
    ]);
    // The good row of the rejected file was not written either.
    expect(await t.store.schools.findById(reedId)).toBeNull();
  });

  it('names a prominence that is not a whole number from 0 to 100', async () => {
    const rows = [
      'schoolname,city,stateprovince,prominence',
      'Reed College,Portland,OR,',
      'A College,Springfield,IL,101',
      'B College,Springfield,IL,-1',
      'C College,Springfield,IL,4.5',
      'D College,Springfield,IL,high',
      'E College,Springfield,IL,100',
    ];
    expect(await rejected('prominence.csv', `${rows.join('\n')}\n`)).toEqual([
      { line: 3, reason: 'prominence "101" is not a whole number from 0 to 100' },
      { line: 4, reason: 'prominence "-1" is not a whole number from 0 to 100' },
      { line: 5, reason: 'prominence "4.5" is not a whole number from 0 to 100' },
      { line: 6, reason: 'prominence "high" is not a whole number from 0 to 100' },
    ]);
  });

  it('names unknown columns', async () => {
    expect(await rejected('unknown.csv', `schoolname,city,stateprovince,website,phone\n${GOOD}\n`)).toEqual([
      {
        line: 1,
        reason:
          'unknown column(s) "website", "phone"; the columns are schoolname, city, stateprovince, image_url, schoolid, aliases, prominence, address, postal_code, latitude, longitude, level, lowest_grade, highest_grade, type, tags',
      },
    ]);
  });

  it('names missing required columns', async () => {
    expect(await rejected('missing.csv', 'schoolname,image_url\nReed College,\n')).toEqual([
      { line: 1, reason: 'missing required column(s) city, stateprovince' },
    ]);
  });

  it('with --strict, rejects two different rows with one id, naming both lines, but allows identical repeats', async () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(
      await rejected(
        'dup.csv',
        [
          HEADER,
          `Reed College,Portland,OR,${id},`,
          `Reed College,Portland,OR,${id},`,
          `Reed College,Portland,OR,${id.toUpperCase()},https://reed.example/logo.png`,
        ].join('\n'),
        { strict: true },
      ),
    ).toEqual([{ line: 4, reason: `has the same school id ${id} as line 2, with different values` }]);
  });

  it("names an address, postal code or coordinate that cannot be a school's", async () => {
    const rows = [
      'schoolname,city,stateprovince,address,postal_code,latitude,longitude',
      'Reed College,Portland,OR,3203 SE Woodstock Blvd,97202,45.4815,-122.6303',
      'A College,Springfield,IL,,,90.5,-89.6',
      'B College,Springfield,IL,,,39.8,-180.01',
      'C College,Springfield,IL,,,north,-89.6',
      'D College,Springfield,IL,,,1e3,-89.6',
      'E College,Springfield,IL,,,39.8,',
      'F College,Springfield,IL,,,,-89.6',
      `G College,Springfield,IL,${'x'.repeat(301)},,,`,
      `H College,Springfield,IL,,${'9'.repeat(21)},,`,
    ];
    expect(await rejected('location.csv', `${rows.join('\n')}\n`)).toEqual([
      { line: 3, reason: 'latitude "90.5" is not a number from -90 to 90' },
      { line: 4, reason: 'longitude "-180.01" is not a number from -180 to 180' },
      { line: 5, reason: 'latitude "north" is not a number from -90 to 90' },
      { line: 6, reason: 'latitude "1e3" is not a number from -90 to 90' },
      { line: 7, reason: 'latitude is given without longitude' },
      { line: 8, reason: 'longitude is given without latitude' },
      { line: 9, reason: 'address is longer than 300 characters' },
      { line: 10, reason: 'postal_code is longer than 20 characters' },
    ]);
  });

  it('reports a quote that is never closed at the line it opens on', async () => {
    expect(await rejected('quote.csv', `${HEADER}\n${GOOD}\n\n"Open College,Portland,OR,,\n${GOOD}\n`)).toEqual([
      { line: 4, reason: expect.stringMatching(/^CSV syntax error: Quote Not Closed/) },
    ]);
  });

  it('keeps every problem but lists only the first 20 in the message', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `College ${i},Springfield,ZZ,,`);
    const error = await rejection('many.csv', [HEADER, ...rows].join('\n'));
    expect(error.problems.map((p) => p.line)).toEqual(Array.from({ length: 25 }, (_, i) => i + 2));
    expect(error.message).toContain('many.csv: 25 rows are invalid; nothing was imported.');
    expect(error.message).toContain('  line 21: stateprovince "ZZ"');
    expect(error.message).not.toContain('line 22:');
    expect(error.message).toContain('… and 5 more');
  });
});

describe('with skipInvalid', () => {
  it('writes the valid rows and reports every invalid one by line; the counts add up; a dry run reports the same', async () => {
    const file = t.file(
      'some-bad.csv',
      [
        HEADER,
        GOOD,
        'Foo College,Springfield,XX,,',
        'Smith College,Northampton,Massachusetts,,',
        ' ,Springfield,IL,,',
        'Qux College,Springfield,IL',
      ].join('\n'),
    );
    const problems = [
      { line: 3, reason: notAState('XX') },
      { line: 5, reason: 'schoolname is empty' },
      { line: 6, reason: 'has 3 fields; the header has 5' },
    ];
    const dry = await dryRunImport(t.store.schools, file, { skipInvalid: true });
    const report = await importFile(t.store, file, { skipInvalid: true });
    for (const r of [dry, report]) {
      expectCountsAddUp(r);
      expect(r).toMatchObject({ rows: 5, schools: 2, problems, skipInvalid: true });
      expect(r.counts).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    }
    expect(await t.store.schools.findById(reedId)).toMatchObject({ name: 'Reed College' });
    expect(await t.store.schools.count()).toBe(5);
    const again = await importFile(t.store, file, { skipInvalid: true });
    expectCountsAddUp(again);
    expect(again.counts).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
  });

  it('still refuses a file that is not in its encoding: no row of it can be trusted', async () => {
    const latin1 = Buffer.from(`schoolname,city,stateprovince\nUniversit\xe9 Laval,Qu\xe9bec,QC\n${GOOD}\n`, 'latin1');
    expect((await rejection('latin1.csv', latin1, { skipInvalid: true })).problems).toEqual([
      { line: 2, reason: 'is not valid UTF-8: byte 10 of the line is 0xE9' },
    ]);
  });
});

describe('an NDJSON file with bad lines', () => {
  it('is rejected whole, listing every bad line with its reason', async () => {
    const good = '{"schoolname":"Reed College","city":"Portland","stateprovince":"OR"}';
    expect(
      await rejected(
        'bad.ndjson',
        [
          good,
          '{"schoolname":"Foo College","city":"Springfield"',
          '',
          '["Foo College","Springfield","IL"]',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","website":"x"}',
          '{"schoolname":"Foo College","stateprovince":"IL"}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","aliases":"FC"}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"Ilinois"}',
          '{"schoolname":"","city":"Springfield","stateprovince":"IL"}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","schoolid":"123"}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","image_url":"javascript:alert(1)"}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","prominence":"50"}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","prominence":0.5}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","latitude":"39.8","longitude":-89.6}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","latitude":39.8,"longitude":-189.6}',
          '{"schoolname":"Foo College","city":"Springfield","stateprovince":"IL","address":12}',
        ].join('\n'),
      ),
    ).toEqual([
      { line: 2, reason: expect.stringMatching(/^is not valid JSON \(/) },
      { line: 4, reason: 'is not a JSON object' },
      { line: 5, reason: 'unknown field(s) "website"' },
      { line: 6, reason: 'city is missing' },
      { line: 7, reason: 'aliases must be an array of strings' },
      { line: 8, reason: notAState('Ilinois') },
      { line: 9, reason: 'schoolname is empty' },
      { line: 10, reason: 'schoolid "123" is not a UUID' },
      { line: 11, reason: 'image_url "javascript:alert(1)" is not an http(s) URL' },
      { line: 12, reason: 'prominence must be a number or null' },
      { line: 13, reason: 'prominence "0.5" is not a whole number from 0 to 100' },
      { line: 14, reason: 'latitude must be a number or null' },
      { line: 15, reason: 'longitude "-189.6" is not a number from -180 to 180' },
      { line: 16, reason: 'address must be a string or null' },
    ]);
    expect(await t.store.schools.findById(reedId)).toBeNull();
  });

  it('rejects bytes that are not UTF-8, naming the line and the byte, and suggests the encoding', async () => {
    const good = '{"schoolname":"Reed College","city":"Portland","stateprovince":"OR"}\n';
    const latin1 = Buffer.from(
      `${good}{"schoolname":"Universit\xe9 Laval","city":"Qu\xe9bec","stateprovince":"QC"}\n`,
      'latin1',
    );
    const error = await rejection('latin1.ndjson', latin1);
    expect(error.problems).toEqual([{ line: 2, reason: 'is not valid UTF-8: byte 25 of the line is 0xE9' }]);
    expect(error.message).toContain('if it is Windows-1252 or Latin-1, import it with --encoding windows-1252');
  });
});

describe('an IPEDS file with bad rows', () => {
  it('needs the IPEDS columns', async () => {
    expect(await rejected('hd.csv', 'UNITID,INSTNM,CITY\n1,A,B\n', { format: 'ipeds' })).toEqual([
      { line: 1, reason: 'not an IPEDS directory file: missing column(s) STABBR' },
    ]);
  });

  it('names the line of a bad UNITID or state', async () => {
    const header = 'UNITID,INSTNM,IALIAS,CITY,STABBR,SECTOR,CYACTIVE';
    expect(
      await rejected(
        'hd2.csv',
        [
          header,
          '100654,"Alabama A & M University","AAMU","Normal","AL",1,1',
          'x1,"A","","B","AL",1,1',
          '100655,"B","","C","QQ",1,1',
          '100656,"Office"," ","Tuscaloosa","ZZ",0,1',
        ].join('\r\n'),
      ),
    ).toEqual([
      { line: 3, reason: 'UNITID "x1" is not a number' },
      { line: 4, reason: notAState('QQ') },
    ]);
  });
});

describe('a file that cannot be read', () => {
  it('is an ImportSourceError naming the path', async () => {
    await expect(importFile(t.store, join(t.dir, 'absent.csv'))).rejects.toThrow(ImportSourceError);
    await expect(importFile(t.store, join(t.dir, 'absent.csv'))).rejects.toThrow(/absent\.csv/);
  });
});
