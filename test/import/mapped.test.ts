// Any other file: CSV, NDJSON or a JSON array read through a column mapping; and JSON arrays of
// the canonical fields. A JSON array's rows are its elements, reported by index and line.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { nameId } from '../../src/domain/catalog/school-identity.ts';
import { ImportError } from '../../src/import/errors.ts';
import { MappingError, parseMapOption, toMapping } from '../../src/import/mapping.ts';
import {
  expectCountsAddUp,
  importChecked as importFile,
  dryRunChecked as dryRunImport,
} from '../support/import-report.ts';
import { namesFound } from '../support/search.ts';
import { tempStore, type TempStore } from '../support/temp-store.ts';

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
});
afterEach(async () => {
  await t.close();
});

const map = (...pairs: string[]) => toMapping(parseMapOption(pairs));
const FACILITIES = map('schoolname=Facility_Name,city=City,stateprovince=Prov_Terr', 'postal_code=Postal_Code');

/** A directory exported as one pretty-printed JSON array, as spreadsheets and APIs write them. */
const facilities = (rows: readonly unknown[]) => `${JSON.stringify(rows, null, 2)}\n`;

describe('a JSON array with a mapping', () => {
  const rows = [
    {
      Facility_Name: 'École Sainte-Bernadette',
      City: 'Saguenay',
      Prov_Terr: 'Québec',
      Postal_Code: 'G7H 3T7',
      Index: 1,
      Authority: { name: 'CSS De La Jonquière' },
    },
    { Facility_Name: 'École Sainte-Bernadette', City: 'Saguenay', Prov_Terr: 'QC', Postal_Code: 'G7S 1S1', Index: 2 },
    { Facility_Name: 'Reed College', City: 'Portland', Prov_Terr: 'Oregon', Postal_Code: 97202, Website: 'reed.edu' },
    { Facility_Name: 'Nowhere School', City: 'Springfield', Prov_Terr: 'XX' },
    { Facility_Name: 'No City School', Prov_Terr: 'IL' },
    'not a school',
    { Facility_Name: 'Reed College', City: 'Portland', Prov_Terr: 'OR', Postal_Code: '97202' },
  ];

  it('reads each element as a row, ignores unmapped fields and lists them once, and reports bad elements by index and line', async () => {
    const file = t.file('facilities.json', facilities(rows));
    const dry = await dryRunImport(t.store.schools, file, { mapping: FACILITIES, skipInvalid: true });
    const report = await importFile(t.store, file, { mapping: FACILITIES, skipInvalid: true });
    for (const r of [dry, report]) {
      expectCountsAddUp(r);
      expect(r).toMatchObject({ format: 'json', rows: 7, schools: 3 });
      expect(r.counts).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
      expect(r.unusedColumns).toEqual(['Index', 'Authority', 'Website']);
      // Pretty-printed: each element is named by its index and the line its "{" is on.
      expect(r.problems).toEqual([
        { element: 4, line: 26, reason: expect.stringMatching(/^stateprovince "XX" is not a US state/) },
        { element: 5, line: 31, reason: 'has no "City" (city)' },
        { element: 6, line: 35, reason: 'is not a JSON object' },
      ]);
      // A ZIP given as a number is the same ZIP as text: one school, an exact repeat.
      expect(r.duplicates).toEqual([
        {
          line: 36,
          element: 7,
          replaces: 19,
          replacesElement: 3,
          id: nameId({ name: 'Reed College', city: 'Portland', state: 'OR', postalCode: '97202' }, 'first'),
          reason: 'name',
          identical: true,
        },
      ]);
    }
    expect(await namesFound(t.store, 'sainte bernadette')).toHaveLength(2);
  });

  it('counts a pretty-printed array of N elements as N rows, whatever its lines', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      Facility_Name: `School ${i}`,
      City: 'Springfield',
      Prov_Terr: 'IL',
      Notes: ['a', 'b'],
    }));
    const text = facilities(many);
    expect(text.split('\n').length).toBeGreaterThan(800);
    const report = await importFile(t.store, t.file('many.json', text), { mapping: FACILITIES });
    expectCountsAddUp(report);
    expect(report).toMatchObject({ rows: 120, schools: 120, problems: [] });
    // Minified on one line: the same rows, each named by its index.
    const minified = `[${many.map((row) => JSON.stringify(row)).join(',')}, 7]`;
    const one = await dryRunImport(t.store.schools, t.file('one-line.json', minified), { mapping: FACILITIES });
    expect(one).toMatchObject({
      rows: 121,
      schools: 120,
      problems: [{ element: 121, line: 1, reason: 'is not a JSON object' }],
    });
  });

  it('derives ids from a source id with its directory prefix, so a re-import keeps them', async () => {
    const mapping = map('schoolname=SCH_NAME,city=LCITY,stateprovince=LSTATE,source_id=NCESSCH,id_prefix=NCES');
    const file = t.file(
      'ccd.json',
      facilities([
        { NCESSCH: '010000500870', SCH_NAME: 'Albertville Middle School', LCITY: 'Albertville', LSTATE: 'AL' },
        { NCESSCH: '010000500871', SCH_NAME: 'Albertville High School', LCITY: 'Albertville', LSTATE: 'AL' },
        { NCESSCH: '010000500870', SCH_NAME: 'Albertville Middle Sch', LCITY: 'Albertville', LSTATE: 'AL' },
      ]),
    );
    const report = await importFile(t.store, file, { mapping });
    expectCountsAddUp(report);
    expect(report.duplicates).toEqual([
      expect.objectContaining({ element: 3, replacesElement: 1, id: uuidV5('nces:010000500870'), reason: 'source' }),
    ]);
    expect(await t.store.schools.findById(uuidV5('nces:010000500870'))).toMatchObject({
      name: 'Albertville Middle Sch',
    });
    expect((await importFile(t.store, file, { mapping })).counts).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
  });

  it('stops at JSON that breaks off, naming its line, after the elements before it', async () => {
    const file = t.file(
      'cut.json',
      '[\n  {"Facility_Name": "A", "City": "B", "Prov_Terr": "IL"},\n  {"Facility_Name": "C",\n',
    );
    const report = await dryRunImport(null, file, { mapping: FACILITIES });
    expect(report).toMatchObject({ rows: 2, schools: 1 });
    expect(report.problems).toEqual([{ line: 4, reason: 'is not valid JSON (the array is never closed)' }]);
    await expect(importFile(t.store, file, { mapping: FACILITIES })).rejects.toBeInstanceOf(ImportError);
  });
});

describe('a CSV or NDJSON file with a mapping', () => {
  it('reads CSV columns by the mapping, any case, other fields by their own names, and ignores the rest', async () => {
    const file = t.file(
      'export.csv',
      [
        'ID,Facility_Name,CITY,Prov_Terr,Address,latitude,longitude,Board',
        '1,Reed College,Portland,OR,3203 SE Woodstock Blvd,45.4815,-122.6303,x',
        '2,Université Laval,Québec,Québec,"2325, rue de l\'Université",46.7817,-71.2748,y',
        '3,Bad School,Springfield,Illinoiss,,,,z',
      ].join('\n'),
    );
    const mapping = map('schoolname=Facility_Name,city=city,stateprovince=Prov_Terr');
    const report = await importFile(t.store, file, { mapping, skipInvalid: true });
    expectCountsAddUp(report);
    expect(report).toMatchObject({ format: 'csv', rows: 3, schools: 2, unusedColumns: ['ID', 'Board'] });
    expect(report.problems.map((p) => p.line)).toEqual([4]);
    expect((await namesFound(t.store, 'laval'))[0]).toBe('Université Laval');
    const laval = nameId(
      { name: 'Université Laval', city: 'Québec', state: 'QC', address: "2325, rue de l'Université" },
      'first',
    );
    expect(await t.store.schools.findById(laval)).toMatchObject({ latitude: 46.7817, longitude: -71.2748 });
  });

  it('refuses a CSV header without a mapped column, naming the columns it has', async () => {
    const file = t.file('typo.csv', 'Name,Town,Prov\nReed College,Portland,OR\n');
    const report = await dryRunImport(null, file, { mapping: map('schoolname=Name,city=City,stateprovince=Prov') });
    expect(report.problems).toEqual([
      { line: 1, reason: 'no column for "City" (city); the header has "Name", "Town", "Prov"' },
    ]);
  });

  it('reads NDJSON objects by the mapping', async () => {
    const file = t.file(
      'rows.ndjson',
      '{"n":"Reed College","c":"Portland","s":"Oregon","aka":["Reed"],"x":1}\n{"n":"Smith College","c":"Northampton","s":"MA","aka":"Smith|SC"}\n',
    );
    const report = await importFile(t.store, file, { mapping: map('schoolname=n,city=c,stateprovince=s,aliases=aka') });
    expectCountsAddUp(report);
    expect(report).toMatchObject({ format: 'ndjson', rows: 2, schools: 2, unusedColumns: ['x'] });
  });

  it('refuses a mapping that names no field, a source id without a prefix, or another format', async () => {
    expect(() => map('school=Name')).toThrow(MappingError);
    expect(() => map('schoolname=Name,source_id=ID')).toThrow(/source_id needs id_prefix/);
    expect(() => map('schoolname')).toThrow(/field=Column pairs/);
    const file = t.file('a.csv', 'Name\nx\n');
    await expect(importFile(t.store, file, { mapping: map('schoolname=Name'), format: 'ipeds' })).rejects.toThrow(
      MappingError,
    );
  });
});

describe('a JSON array of the canonical fields', () => {
  it('is told from its first "[" and read like NDJSON, each element a row', async () => {
    const file = t.file(
      'schools.txt',
      ' \n[\n {"schoolname":"Reed College","city":"Portland","stateprovince":"OR"},\n {"schoolname":"X","city":"Y","stateprovince":"OR","website":"x"}\n]',
    );
    const report = await dryRunImport(null, file);
    expectCountsAddUp(report);
    expect(report).toMatchObject({ format: 'json', rows: 2, schools: 1 });
    expect(report.problems).toEqual([{ element: 2, line: 4, reason: 'unknown field(s) "website"' }]);
  });
});
