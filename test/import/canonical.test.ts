// The canonical CSV and NDJSON formats: what an operator writes by hand or exports.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nameId } from '../../src/domain/catalog/school-identity.ts';
import type { StoredLocation } from '../../src/domain/catalog/school-location.ts';
import { namesFound, searchStore } from '../support/search.ts';
import { UnknownFormatError } from '../../src/import/errors.ts';
import { ImportError } from '../../src/import/errors.ts';
import {
  expectCountsAddUp,
  importChecked as importFile,
  dryRunChecked as dryRunImport,
} from '../support/import-report.ts';
import { FIXTURES, tempStore, type TempStore } from '../support/temp-store.ts';

/** The id a row without schoolid gets (src/domain/catalog/school-identity.ts). */
const derivedId = (name: string, city: string, state: string, location: StoredLocation = {}) =>
  nameId({ name, city, state, ...location }, 'first');

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
});
afterEach(async () => {
  await t.close();
});

describe('canonical CSV', () => {
  it('imports names with commas and line breaks, image_url, schoolid and aliases', async () => {
    const report = await importFile(t.store, join(FIXTURES, 'schools.csv'));
    expect(report.format).toBe('csv');
    expectCountsAddUp(report);
    expect(report.rows).toBe(4);
    expect(report.counts).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    // The quoted name spanning two lines is, once its whitespace is collapsed, the same school as line 7.
    expect(report.duplicates).toEqual([
      {
        line: 7,
        replaces: 4,
        id: derivedId("Saint Mary's College", 'Notre Dame', 'IN'),
        reason: 'name',
        identical: true,
      },
    ]);
    expect(report.skipped).toEqual({});

    expect(await t.store.schools.findById('0f8fad5b-d9cb-469f-a165-70867728950e')).toEqual({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      name: 'University of California, Berkeley',
      city: 'Berkeley',
      state: 'CA',
      imageUrl: 'https://logos.example.com/berkeley.png',
    });
    expect(await t.store.schools.findById(derivedId('Université Laval', 'Québec', 'QC'))).toMatchObject({
      name: 'Université Laval',
      imageUrl: null,
    });
    const smc = await searchStore(t.store, 'smc', { limit: 5 });
    expect(smc.hits.map((h) => [h.school.id, h.school.name])).toEqual([
      [derivedId("Saint Mary's College", 'Notre Dame', 'IN'), "Saint Mary's College"],
    ]);
    expect(await namesFound(t.store, 'cal', { limit: 5 })).toEqual(['University of California, Berkeley']);
  });

  it('reads CRLF line ends and a UTF-8 byte order mark, and updates changed rows on re-import', async () => {
    const rows = ['schoolname,city,stateprovince', 'Université Laval,Québec,QC', 'Reed College,Portland,OR'];
    const first = t.file('bom.csv', `\uFEFF${rows.join('\r\n')}\r\n`);
    expect((await importFile(t.store, first)).counts).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(await t.store.schools.findById(derivedId('Université Laval', 'Québec', 'QC'))).toMatchObject({
      name: 'Université Laval',
    });

    const changed = t.file(
      'changed.csv',
      'schoolname,city,stateprovince,image_url\nReed College,Portland,OR,https://reed.example/logo.png\nUniversité Laval,Québec,QC,\n',
    );
    expect((await importFile(t.store, changed)).counts).toEqual({ inserted: 0, updated: 1, unchanged: 1 });
    expect((await t.store.schools.findById(derivedId('Reed College', 'Portland', 'OR')))?.imageUrl).toBe(
      'https://reed.example/logo.png',
    );
  });
});

describe('canonical CSV with a location', () => {
  const HEADER = 'schoolname,city,stateprovince,address,postal_code,latitude,longitude';

  it('keeps address, postal_code, latitude and longitude, a blank one as unknown (absent)', async () => {
    const file = t.file(
      'located.csv',
      [
        HEADER,
        '"Université Laval","Québec",QC,"2325, rue de l\'Université",G1V 0A6,46.7817,-71.2748',
        'Reed College,Portland,OR,  3203 SE   Woodstock Blvd ,97202-8199,,',
        'Mount Holyoke College,South Hadley,MA,,,42.2557,-72.5753',
        'Smith College,Northampton,MA,,,,',
      ].join('\r\n'),
    );
    expect((await importFile(t.store, file)).counts).toEqual({ inserted: 4, updated: 0, unchanged: 0 });
    expect(
      await t.store.schools.findById(derivedId('Université Laval', 'Québec', 'QC', { postalCode: 'G1V 0A6' })),
    ).toStrictEqual({
      id: derivedId('Université Laval', 'Québec', 'QC', { postalCode: 'G1V 0A6' }),
      name: 'Université Laval',
      city: 'Québec',
      state: 'QC',
      imageUrl: null,
      address: "2325, rue de l'Université",
      postalCode: 'G1V 0A6',
      latitude: 46.7817,
      longitude: -71.2748,
    });
    // Whitespace collapsed as in names; no coordinates: no latitude or longitude key at all.
    // ZIP+4 is the ZIP in the id.
    expect(
      await t.store.schools.findById(derivedId('Reed College', 'Portland', 'OR', { postalCode: '97202' })),
    ).toStrictEqual({
      id: derivedId('Reed College', 'Portland', 'OR', { postalCode: '97202' }),
      name: 'Reed College',
      city: 'Portland',
      state: 'OR',
      imageUrl: null,
      address: '3203 SE Woodstock Blvd',
      postalCode: '97202-8199',
    });
    const holyoke = derivedId('Mount Holyoke College', 'South Hadley', 'MA', {
      latitude: 42.2557,
      longitude: -72.5753,
    });
    expect(await t.store.schools.findById(holyoke)).toStrictEqual(
      expect.objectContaining({ latitude: 42.2557, longitude: -72.5753 }),
    );
    expect(Object.keys((await t.store.schools.findById(derivedId('Smith College', 'Northampton', 'MA')))!)).toEqual([
      'id',
      'name',
      'city',
      'state',
      'imageUrl',
    ]);
    // The search engine's hits carry them too.
    expect((await searchStore(t.store, 'universite laval')).hits[0]!.school).toMatchObject({
      address: "2325, rue de l'Université",
      postalCode: 'G1V 0A6',
      latitude: 46.7817,
      longitude: -71.2748,
    });
  });

  it('counts a school whose location changed as updated, and the same file again as unchanged', async () => {
    await importFile(
      t.store,
      t.file(
        'a.csv',
        `${HEADER}\nReed College,Portland,OR,3203 SE Woodstock Blvd,97202,45.4815,-122.6303\nSmith College,Northampton,MA,,01063,,\n`,
      ),
    );
    const moved = t.file(
      'b.csv',
      `${HEADER}\nReed College,Portland,OR,3203 SE Woodstock Blvd.,97202-8199,45.4816,-122.6303\nSmith College,Northampton,MA,1 Chapin Way,01063,42.3181,-72.6386\n`,
    );
    const report = await importFile(t.store, moved);
    expectCountsAddUp(report);
    expect(report.counts).toEqual({ inserted: 0, updated: 2, unchanged: 0 });
    expect((await importFile(t.store, moved)).counts).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
    expect(await t.store.schools.count()).toBe(2);
  });

  it('gives a school without schoolid a new id when its postal code changes or becomes known: the cost of telling namesakes apart', async () => {
    await importFile(t.store, t.file('a.csv', `${HEADER}\nSmith College,Northampton,MA,1 Chapin Way,,,\n`));
    const report = await importFile(
      t.store,
      t.file('b.csv', `${HEADER}\nSmith College,Northampton,MA,1 Chapin Way,01063,,\n`),
    );
    expect(report.counts).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    expect(await t.store.schools.count()).toBe(2);
  });
});

describe('state and province codes', () => {
  it('are read in any case and with spaces around them, as the same school as the upper-case code', async () => {
    const file = t.file(
      'cases.csv',
      'schoolname,city,stateprovince\nUniversité Laval,Québec, qc \nReed College,Portland,Or\n',
    );
    expect((await importFile(t.store, file)).counts).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(await t.store.schools.findById(derivedId('Université Laval', 'Québec', 'QC'))).toMatchObject({
      state: 'QC',
    });
    expect(await t.store.schools.findById(derivedId('Reed College', 'Portland', 'OR'))).toMatchObject({ state: 'OR' });
    const upper = t.file('upper.csv', 'schoolname,city,stateprovince\nUniversité Laval,Québec,QC\n');
    expect((await importFile(t.store, upper)).counts).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    expect((await searchStore(t.store, 'laval', { state: 'QC' })).total).toBe(1);
  });

  it('may be full names in English or French, or common abbreviations, in any case and with or without accents', async () => {
    const given: ReadonlyArray<readonly [string, string]> = [
      ['Texas', 'TX'],
      ['ontario', 'ON'],
      ['Québec', 'QC'],
      ['QUEBEC', 'QC'],
      ['Colombie-Britannique', 'BC'],
      ['Nouvelle-Écosse', 'NS'],
      ['nouvelle ecosse', 'NS'],
      ['Terre-Neuve-et-Labrador', 'NL'],
      ['Newfoundland and Labrador', 'NL'],
      ['Nfld.', 'NL'],
      ['Territoires du Nord-Ouest', 'NT'],
      ['Île-du-Prince-Édouard', 'PE'],
      ['P.E.I.', 'PE'],
      ['District of Columbia', 'DC'],
      ['Washington, D.C.', 'DC'],
      ['Washington', 'WA'],
      ['Puerto Rico', 'PR'],
      ['Porto Rico', 'PR'],
      ['Caroline du Nord', 'NC'],
      ['Calif.', 'CA'],
      ['N.Y.', 'NY'],
      ['B.C.', 'BC'],
      ['Yukon', 'YT'],
      ['Nunavut', 'NU'],
    ];
    const rows = given.map(([state], i) => `School ${i},Springfield,"${state}"`);
    const report = await importFile(
      t.store,
      t.file('names.csv', `schoolname,city,stateprovince\n${rows.join('\n')}\n`),
    );
    expect(report.counts).toEqual({ inserted: given.length, updated: 0, unchanged: 0 });
    for (const [i, [state, code]] of given.entries()) {
      // The same id as the code gives: "Texas" and "TX" are one school.
      expect(await t.store.schools.findById(derivedId(`School ${i}`, 'Springfield', code)), state).toMatchObject({
        state: code,
      });
    }
  });

  it('are still refused when they name no state or province, or are ambiguous, saying what is accepted', async () => {
    const file = t.file(
      'wrong.csv',
      'schoolname,city,stateprovince\nA,Springfield,Texass\nB,Halifax,N.-É.\nC,Springfield,England\nD,Springfield,NE\n',
    );
    const report = await dryRunImport(null, file);
    expectCountsAddUp(report);
    expect(report.problems).toEqual([
      {
        line: 2,
        reason:
          'stateprovince "Texass" is not a US state/territory or Canadian province/territory: give its two-letter code (e.g. TX, DC, PR, ON, QC), or its name in English or French ("Texas", "Puerto Rico", "Québec", "Colombie-Britannique"), or a common abbreviation ("Calif.", "Ont.", "P.E.I.")',
      },
      { line: 3, reason: 'stateprovince "N.-É." is ambiguous: NE (Nebraska) or NS ("N.-É.", Nova Scotia)' },
      { line: 4, reason: expect.stringMatching(/^stateprovince "England" is not a US state/) },
    ]);
    // A code is a code: NE is Nebraska.
    expect(report.schools).toBe(1);
  });
});

describe('two rows of one school', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const rows = [
    'schoolid,schoolname,city,stateprovince,image_url',
    `${id},Reed College,Portland,OR,`,
    ',Université Laval,Québec,QC,',
    `${id.toUpperCase()},Reed College,Portland,OR,https://reed.example/logo.png`,
    ',Université Laval,Québec,QC,',
    `${id},Reed College,Portland,OR,https://reed.example/logo-2.png`,
  ];

  it('are merged by default: the later row wins, each replacement is reported with both lines', async () => {
    const report = await importFile(t.store, t.file('dup.csv', rows.join('\n')));
    expectCountsAddUp(report);
    expect(report.rows).toBe(5);
    expect(report.schools).toBe(2);
    expect(report.counts).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(report.duplicates).toEqual([
      { line: 4, replaces: 2, id, reason: 'schoolid', identical: false },
      { line: 5, replaces: 3, id: derivedId('Université Laval', 'Québec', 'QC'), reason: 'name', identical: true },
      { line: 6, replaces: 4, id, reason: 'schoolid', identical: false },
    ]);
    expect(report.skipped).toEqual({});
    expect((await t.store.schools.findById(id))?.imageUrl).toBe('https://reed.example/logo-2.png');
  });

  it('are refused with strict, naming both lines, and nothing is written', async () => {
    const error = await importFile(t.store, t.file('dup.csv', rows.join('\n')), { strict: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 4, reason: `has the same school id ${id} as line 2, with different values` },
      { line: 6, reason: `has the same school id ${id} as line 2, with different values` },
    ]);
    expect(await t.store.schools.count()).toBe(0);
  });
});

describe('canonical NDJSON', () => {
  it('imports objects line by line, ignoring blank lines and surrounding spaces', async () => {
    const report = await importFile(t.store, join(FIXTURES, 'schools.ndjson'));
    expectCountsAddUp(report);
    expect(report.format).toBe('ndjson');
    expect(report.rows).toBe(3);
    expect(report.counts).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    expect(await t.store.schools.findById('7c9e6679-7425-40de-944b-e07fc1f90ae7')).toEqual({
      id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      name: 'Massachusetts Institute of Technology',
      city: 'Cambridge',
      state: 'MA',
      imageUrl: 'https://logos.example.com/mit.svg',
    });
    expect(
      await t.store.schools.findById(derivedId('École Polytechnique de Montréal', 'Montréal', 'QC')),
    ).toMatchObject({ imageUrl: null });
    expect((await searchStore(t.store, 'polytechnique montreal')).total).toBe(1);
    expect((await importFile(t.store, join(FIXTURES, 'schools.ndjson'))).counts).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 3,
    });
  });

  it('reads address, postal_code, latitude and longitude; null is unknown', async () => {
    const file = t.file(
      'located.ndjson',
      [
        '{"schoolname":"Université Laval","city":"Québec","stateprovince":"QC","address":"2325, rue de l\'Université","postal_code":"G1V 0A6","latitude":46.7817,"longitude":-71.2748}',
        '{"schoolname":"Reed College","city":"Portland","stateprovince":"OR","address":null,"postal_code":"97202","latitude":null,"longitude":null}',
      ].join('\n'),
    );
    expect((await importFile(t.store, file)).counts).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(
      await t.store.schools.findById(derivedId('Université Laval', 'Québec', 'QC', { postalCode: 'G1V 0A6' })),
    ).toMatchObject({
      address: "2325, rue de l'Université",
      postalCode: 'G1V 0A6',
      latitude: 46.7817,
      longitude: -71.2748,
    });
    expect(
      await t.store.schools.findById(derivedId('Reed College', 'Portland', 'OR', { postalCode: '97202' })),
    ).toStrictEqual({
      id: derivedId('Reed College', 'Portland', 'OR', { postalCode: '97202' }),
      name: 'Reed College',
      city: 'Portland',
      state: 'OR',
      imageUrl: null,
      postalCode: '97202',
    });
    expect((await importFile(t.store, file)).counts).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
  });

  it('tells the format from .jsonl, from a leading "{" and from --format', async () => {
    const line = '{"schoolname":"Reed College","city":"Portland","stateprovince":"OR"}\r\n';
    expect((await importFile(t.store, t.file('a.jsonl', line))).format).toBe('ndjson');
    expect((await importFile(t.store, t.file('a.txt', line))).format).toBe('ndjson');
    expect(
      (await importFile(t.store, t.file('b.txt', 'schoolname,city,stateprovince\nReed College,Portland,OR\n'))).format,
    ).toBe('csv');
    expect((await importFile(t.store, t.file('c.data', line), { format: 'ndjson' })).counts).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 1,
    });
    await expect(importFile(t.store, t.file('d.txt', 'name;town\n'))).rejects.toBeInstanceOf(UnknownFormatError);
  });
});

describe('canonical formats with what a school is', () => {
  it('reads level, grades, type and tags from CSV; grades alone give NCES level; a blank is unknown', async () => {
    const file = t.file(
      'kinds.csv',
      [
        'schoolname,city,stateprovince,level,lowest_grade,highest_grade,type,tags',
        'Lincoln High School,Lincoln,AL,,9,12,public,',
        'Albertville Middle School,Albertville,AL,,07,08,Public,',
        'Kipp Academy,Lynn,MA,,KG,8,public,charter',
        'Reed College,Portland,OR,postsecondary,,,postsecondary,private_control|for_profit|private_control',
        'Horace Mann School,Bronx,NY,,PK,12,private,',
        'Smith College,Northampton,MA,,,,,',
      ].join('\n'),
    );
    expect((await importFile(t.store, file)).counts).toEqual({ inserted: 6, updated: 0, unchanged: 0 });
    const find = (name: string, city: string, state: string) => t.store.schools.findById(derivedId(name, city, state));
    expect(await find('Lincoln High School', 'Lincoln', 'AL')).toMatchObject({
      level: 'high',
      lowestGrade: '9',
      highestGrade: '12',
      type: 'public',
    });
    // NCES middle: lowest 4–7, highest 4–9.
    expect(await find('Albertville Middle School', 'Albertville', 'AL')).toMatchObject({
      level: 'middle',
      lowestGrade: '7',
      highestGrade: '8',
    });
    expect(await find('Kipp Academy', 'Lynn', 'MA')).toMatchObject({
      level: 'elementary',
      lowestGrade: 'K',
      tags: ['charter'],
    });
    // Tags distinct, in the contract's order.
    expect(await find('Reed College', 'Portland', 'OR')).toMatchObject({
      level: 'postsecondary',
      type: 'postsecondary',
      tags: ['private_control', 'for_profit'],
    });
    expect(await find('Horace Mann School', 'Bronx', 'NY')).toMatchObject({ level: 'other', type: 'private' });
    const smith = (await find('Smith College', 'Northampton', 'MA'))!;
    for (const key of ['level', 'lowestGrade', 'highestGrade', 'type', 'tags']) expect(smith).not.toHaveProperty(key);
    // The search engine's hits carry them.
    expect((await searchStore(t.store, 'kipp academy')).hits[0]!.school).toMatchObject({ tags: ['charter'] });
    expect((await importFile(t.store, file)).counts).toEqual({ inserted: 0, updated: 0, unchanged: 6 });
  });

  it('reads them from NDJSON, tags an array and null unknown', async () => {
    const file = t.file(
      'kinds.ndjson',
      [
        '{"schoolname":"Lincoln High School","city":"Lincoln","stateprovince":"AL","lowest_grade":"9","highest_grade":"12","type":"public","tags":["charter"]}',
        '{"schoolname":"Reed College","city":"Portland","stateprovince":"OR","level":null,"type":"postsecondary","tags":null}',
      ].join('\n'),
    );
    expect((await importFile(t.store, file)).counts).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(await t.store.schools.findById(derivedId('Lincoln High School', 'Lincoln', 'AL'))).toMatchObject({
      level: 'high',
      tags: ['charter'],
    });
    expect(await t.store.schools.findById(derivedId('Reed College', 'Portland', 'OR'))).toStrictEqual({
      id: derivedId('Reed College', 'Portland', 'OR'),
      name: 'Reed College',
      city: 'Portland',
      state: 'OR',
      imageUrl: null,
      type: 'postsecondary',
    });
  });

  it('refuses a row with a value outside the vocabularies, or grades the wrong way round, naming the line', async () => {
    const file = t.file(
      'bad-kinds.csv',
      [
        'schoolname,city,stateprovince,level,lowest_grade,highest_grade,type,tags',
        'Good School,Lincoln,AL,,9,12,public,',
        'Bad Level,Lincoln,AL,secondary,,,,',
        'Bad Grade,Lincoln,AL,,13,,,',
        'Upside Down,Lincoln,AL,,12,9,,',
        'Bad Type,Lincoln,AL,,,,charter,',
        'Bad Tag,Lincoln,AL,,,,public,magnet',
      ].join('\n'),
    );
    const error = await importFile(t.store, file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 3, reason: 'level "secondary" is not one of elementary, middle, high, other, postsecondary' },
      { line: 4, reason: 'lowest_grade "13" is not a grade (PK, K, 1 to 12)' },
      { line: 5, reason: 'lowest_grade 12 is above highest_grade 9' },
      { line: 6, reason: 'type "charter" is not one of public, private, postsecondary' },
      {
        line: 7,
        reason:
          'tag "magnet" is not one of charter, catholic, separate, francophone, public_control, private_control, for_profit',
      },
    ]);
    expect(await t.store.schools.count()).toBe(0);
  });
});
