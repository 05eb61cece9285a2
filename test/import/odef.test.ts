// Statistics Canada's ODEF CSV as distributed (Windows-1252, ".." for missing values, lower-case
// province codes), and what every format shares: duplicates merged or refused (strict), dry runs,
// encodings. test/fixtures/odef-sample.csv is a small synthetic file in ODEF v2.1's shape, written
// as real Windows-1252 bytes (é 0xE9, è 0xE8, ô 0xF4, ç 0xE7, ’ 0x92) with CRLF line ends:
//   line 2, 3    two "École Saint-Joseph" in Montréal that the provider tells apart by Source_Id
//   line 4, 22   one Source_Id twice: line 22 (coordinates refined, postal code "H2G2Y3") wins
//   line 8       no Provider, no Source_Id, no coordinates ("..")
//   line 9, 24   "École Pierre de Coubertin" / "École Pierre-De-Coubertin", Montréal, no Source_Id, at two
//                addresses: two schools
//   line 12      repeats line 11 exactly (only Index differs): merged
//   line 13      City ".." (CSDNAME Québec); line 17 Full_Addr ".." (Street_No Street_Name)
//   line 18      "NB" in upper case; line 21 Prov_Terr ".." (PRUID 48)
//   line 26, 27  a quoted name with a comma, and one with quotes
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { nameId } from '../../src/domain/catalog/school-identity.ts';
import type { StoredLocation } from '../../src/domain/catalog/school-location.ts';
import { STATE_FORMS } from '../../src/domain/catalog/state-names.ts';
import { parseEncoding } from '../../src/import/encoding.ts';
import { ImportError } from '../../src/import/errors.ts';
import {
  expectCountsAddUp,
  importChecked as importFile,
  dryRunChecked as dryRunImport,
} from '../support/import-report.ts';
import { namesFound, searchStore } from '../support/search.ts';
import { FIXTURES, tempStore, type TempStore } from '../support/temp-store.ts';

const ODEF_FILE = join(FIXTURES, 'odef-sample.csv');
const QC = 'Gouvernement du Québec';
const odefId = (provider: string, sourceId: string) => uuidV5(`odef:${provider}:${sourceId}`);
/** The id of a row without a Source_Id: name, city, province and location, as in the canonical formats. */
const derivedId = (name: string, city: string, state: string, location: StoredLocation = {}) =>
  nameId({ name, city, state, ...location }, 'first');

const PIERRE = derivedId('École Pierre-De-Coubertin', 'Montréal', 'QC', { postalCode: 'H1P 1Y6' });
const MARQUETTE = odefId(QC, '762104');
const DUPLICATES = [
  { line: 12, replaces: 11, id: odefId(QC, '442300'), reason: 'source', identical: true },
  { line: 22, replaces: 4, id: MARQUETTE, reason: 'source', identical: false },
];

const notAState = (given: string) =>
  `stateprovince "${given}" is not a US state/territory or Canadian province/territory: give ${STATE_FORMS}`;

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
});
afterEach(async () => {
  await t.close();
});

describe('importing the ODEF file', () => {
  it('reads Windows-1252, detects the format from the header, merges the duplicates and names both lines', async () => {
    const report = await importFile(t.store, ODEF_FILE);
    expectCountsAddUp(report);
    expect(report).toMatchObject({
      format: 'odef',
      encoding: 'windows-1252',
      rows: 30,
      schools: 28,
      dryRun: false,
      problems: [],
    });
    expect(report.counts).toEqual({ inserted: 28, updated: 0, unchanged: 0 });
    expect(report.duplicates).toEqual(DUPLICATES);
    expect(report.skipped).toEqual({});
    expect(await t.store.schools.count()).toBe(28);

    // Two spellings of one name at two addresses are two schools; "qc" is QC.
    expect(
      await t.store.schools.findById(
        derivedId('École Pierre de Coubertin', 'Montréal', 'QC', { postalCode: 'H1P 1Y4' }),
      ),
    ).toMatchObject({
      name: 'École Pierre de Coubertin',
      address: '8500, rue Pascal-Gagnon',
    });
    expect(await t.store.schools.findById(PIERRE)).toStrictEqual({
      id: PIERRE,
      name: 'École Pierre-De-Coubertin',
      city: 'Montréal',
      state: 'QC',
      imageUrl: null,
      address: '8555, rue Pascal-Gagnon',
      postalCode: 'H1P 1Y6',
      latitude: 45.6052,
      longitude: -73.5912,
      // ISCED020 and ISCED1: kindergarten to grade 6. Facility_Type "Elementary" is not one of
      // ODEF's values: no type.
      level: 'elementary',
      lowestGrade: 'K',
      highestGrade: '6',
    });
    expect(await t.store.schools.findById(MARQUETTE)).toMatchObject({
      name: 'École secondaire Père-Marquette',
      postalCode: 'H2G 2Y3',
      latitude: 45.5446,
      longitude: -73.5836,
    });
    expect((await namesFound(t.store, 'pierre de coubertin')).sort()).toEqual([
      'École Pierre de Coubertin',
      'École Pierre-De-Coubertin',
    ]);
  });

  it('keeps accents, quotes and commas as written, and fills what ODEF leaves out from its other columns', async () => {
    await importFile(t.store, ODEF_FILE);
    const school = async (provider: string, sourceId: string) => t.store.schools.findById(odefId(provider, sourceId));
    expect(await school(QC, '760070')).toMatchObject({
      name: 'Collège de l’Assomption',
      city: 'L’Assomption',
      address: '270, boulevard de l’Ange-Gardien',
    });
    expect(await school(QC, '762900')).toMatchObject({
      name: 'Collège Jean-de-Brébeuf',
      city: 'Montréal',
      address: '3200, chemin de la Côte-Sainte-Catherine',
    });
    expect(await school(QC, '733050')).toMatchObject({ name: 'École Saint-François-Xavier', city: 'Lévis' });
    expect(await school(QC, '762333')).toMatchObject({ name: 'École Le Phare, pavillon Saint-Louis' });
    expect(await school(QC, '717040')).toMatchObject({ name: 'École "Les Trois-Saumons"' });
    // City "..": the census subdivision; Full_Addr "..": street number and name; Prov_Terr "..": PRUID.
    expect(await school(QC, '421555')).toMatchObject({ name: 'École du Boisé', city: 'Québec', state: 'QC' });
    expect(await school('Province of British Columbia', '09393018')).toMatchObject({
      address: '3550 Wellington St',
      state: 'BC',
    });
    expect(await school('Government of Alberta', '9856')).toMatchObject({ city: 'Calgary', state: 'AB' });
    expect(await school('Province of New Brunswick', '1612')).toMatchObject({ state: 'NB' });
    expect(await school('Ontario Ministry of Education', '908800')).toMatchObject({ city: 'Ottawa', state: 'ON' });
    // No coordinates ("..") and no Source_Id: no latitude or longitude, an id from name, city and province.
    const neiges = await t.store.schools.findById(
      derivedId('École Notre-Dame-des-Neiges', 'Montréal', 'QC', { postalCode: 'H3T 1Y5' }),
    );
    expect(neiges).toMatchObject({ address: '5309, chemin de la Côte-des-Neiges', postalCode: 'H3T 1Y5' });
    expect(neiges).not.toHaveProperty('latitude');
    expect(neiges).not.toHaveProperty('longitude');
    // Two facilities of one name in one city that their provider tells apart stay two schools.
    const josephs = await searchStore(t.store, 'ecole saint joseph');
    expect(josephs.hits.map((h) => [h.school.name, h.school.address])).toEqual(
      expect.arrayContaining([
        ['École Saint-Joseph', '1234, rue Sherbrooke Est'],
        ['École Saint-Joseph', '5910, boulevard Gouin Ouest'],
      ]),
    );
    expect(josephs.hits.filter((h) => h.school.name === 'École Saint-Joseph')).toHaveLength(2);
  });

  it('adds nothing when imported again', async () => {
    await importFile(t.store, ODEF_FILE);
    const again = await importFile(t.store, ODEF_FILE, { format: 'odef' });
    expectCountsAddUp(again);
    expect(again.counts).toEqual({ inserted: 0, updated: 0, unchanged: 28 });
    expect(again.duplicates).toEqual(DUPLICATES);
  });

  it('is told from its header whatever the file is called', async () => {
    expect((await importFile(t.store, t.file('facilities.txt', readFileSync(ODEF_FILE)))).format).toBe('odef');
  });

  it('is refused with strict: both duplicates listed with both lines, nothing written', async () => {
    const error = await importFile(t.store, ODEF_FILE, { strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 22, reason: `has the same school id ${MARQUETTE} as line 4, with different values` },
    ]);
    expect(await t.store.schools.count()).toBe(0);
  });
});

describe('a dry run', () => {
  it('reports what the import would do and writes nothing', async () => {
    const report = await dryRunImport(t.store.schools, ODEF_FILE);
    expectCountsAddUp(report);
    expect(report).toMatchObject({
      format: 'odef',
      rows: 30,
      schools: 28,
      dryRun: true,
      problems: [],
      duplicates: DUPLICATES,
      skipped: {},
    });
    expect(report.counts).toEqual({ inserted: 28, updated: 0, unchanged: 0 });
    expect(await t.store.schools.count()).toBe(0);
    const version = await t.store.schools.catalogVersion();

    await importFile(t.store, ODEF_FILE);
    // Line 24's coordinates changed, and a new school at the end: still Windows-1252 bytes.
    const added = [
      '9999',
      'École Nouvelle',
      'Elementary',
      ...Array<string>(12).fill('..'),
      'Montréal',
      'qc',
      ...Array<string>(11).fill('..'),
    ].join(',');
    const changed = t.file(
      'changed.csv',
      Buffer.from(
        `${readFileSync(ODEF_FILE).toString('latin1').replace('-73.5912', '-73.5913')}${added}\r\n`,
        'latin1',
      ),
    );
    expect((await dryRunImport(t.store.schools, changed, { encoding: 'windows-1252' })).counts).toEqual({
      inserted: 1,
      updated: 1,
      unchanged: 27,
    });
    expect(await t.store.schools.findById(PIERRE)).toMatchObject({ longitude: -73.5912 });
    expect(await t.store.schools.catalogVersion()).not.toBe(version);
    const after = await t.store.schools.catalogVersion();
    await dryRunImport(t.store.schools, changed);
    expect(await t.store.schools.catalogVersion()).toBe(after);
  });

  it('without a store, counts every school as new', async () => {
    expect((await dryRunImport(null, ODEF_FILE)).counts).toEqual({ inserted: 28, updated: 0, unchanged: 0 });
  });

  it('lists invalid rows instead of throwing, and turns duplicates into invalid rows with strict', async () => {
    const bad = t.file(
      'bad.csv',
      'schoolname,city,stateprovince,latitude,longitude\nReed College,Portland,OR,45.48,-122.63\nFoo College,Springfield,XX,,\nBar College,Springfield,IL,91,-89\n',
    );
    const report = await dryRunImport(t.store.schools, bad);
    expect(report).toMatchObject({ rows: 3, schools: 1, counts: { inserted: 1, updated: 0, unchanged: 0 } });
    expect(report.problems).toEqual([
      { line: 3, reason: notAState('XX') },
      { line: 4, reason: 'latitude "91" is not a number from -90 to 90' },
    ]);
    const strict = await dryRunImport(t.store.schools, ODEF_FILE, { strict: true });
    expect(strict.problems.map((p) => p.line)).toEqual([22]);
    // An identical repeat is not a conflict, even when strict.
    expect(strict.duplicates).toEqual([DUPLICATES[0]]);
    expect(await t.store.schools.count()).toBe(0);
  });
});

describe('encodings', () => {
  it('read as UTF-8, a Windows-1252 file is an error naming each line with the bad byte, and suggesting the encoding', async () => {
    const error = await importFile(t.store, ODEF_FILE, { encoding: 'utf-8' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    const { problems, message } = error as ImportError;
    // Line 2: "1000,École…": É (0xC9) is the 6th byte.
    expect(problems[0]).toEqual({ line: 2, reason: 'is not valid UTF-8: byte 6 of the line is 0xC9' });
    // Lines 15, 16, 19, 21 and 29 are ASCII: not listed. Every other data line is.
    expect(problems.map((p) => p.line)).not.toContain(15);
    expect(problems).toHaveLength(25);
    expect(message).toContain('if it is Windows-1252 or Latin-1, import it with --encoding windows-1252');
    expect(await t.store.schools.count()).toBe(0);
  });

  it('names the first bad byte of each line: overlong forms, surrogates, cut sequences, code points past U+10FFFF', async () => {
    const file = t.file(
      'bytes.csv',
      Buffer.concat([
        Buffer.from('schoolname,city,stateprovince\nReed College 😀 ü,Portland,OR\n'),
        Buffer.from([0x41, 0xc0, 0xaf]),
        Buffer.from(',Springfield,IL\n'),
        Buffer.from('Bé'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from(',Springfield,IL\n'),
        Buffer.from('C,Springfield,IL'),
        Buffer.from([0xe2, 0x82]),
        Buffer.from('\n'),
        Buffer.from('D,Springfield,IL'),
        Buffer.from([0xf4, 0x90, 0x80, 0x80]),
      ]),
    );
    const error = await importFile(t.store, file).catch((e: unknown) => e);
    expect((error as ImportError).problems).toEqual([
      { line: 3, reason: 'is not valid UTF-8: byte 2 of the line is 0xC0' },
      { line: 4, reason: 'is not valid UTF-8: byte 4 of the line is 0xED' },
      { line: 5, reason: 'is not valid UTF-8: byte 17 of the line is 0xE2' },
      { line: 6, reason: 'is not valid UTF-8: byte 17 of the line is 0xF4' },
    ]);
  });

  it('a canonical CSV in Windows-1252 is refused by default and read right with --encoding windows-1252 or latin1', async () => {
    const cp1252 = Buffer.from(
      'schoolname,city,stateprovince,address\nCollège de l\x92Assomption,L\x92Assomption,qc,"270, boulevard de l\x92Ange-Gardien"\n',
      'latin1',
    );
    const file = t.file('cp1252.csv', cp1252);
    await expect(importFile(t.store, file)).rejects.toThrow(/line 2: is not valid UTF-8: byte 5 of the line is 0xE8/);
    const report = await importFile(t.store, file, { encoding: parseEncoding('LATIN1') });
    expect(report.encoding).toBe('windows-1252');
    // 0x92 is ’ (U+2019) in Windows-1252, where ISO-8859-1 would have a control character.
    expect(await namesFound(t.store, 'college de l assomption')).toEqual(['Collège de l’Assomption']);
    const id = derivedId('Collège de l’Assomption', 'L’Assomption', 'QC', {
      address: '270, boulevard de l’Ange-Gardien',
    });
    expect(await t.store.schools.findById(id)).toMatchObject({
      city: 'L’Assomption',
      state: 'QC',
      address: '270, boulevard de l’Ange-Gardien',
    });
  });

  it('a UTF-8 file with a byte order mark is read as UTF-8 even where the format defaults to Windows-1252', async () => {
    const utf8 = `\uFEFF${new TextDecoder('windows-1252').decode(readFileSync(ODEF_FILE))}`;
    const report = await importFile(t.store, t.file('odef-utf8.csv', utf8));
    expect(report).toMatchObject({ format: 'odef', encoding: 'utf-8', schools: 28 });
    expect(await t.store.schools.findById(PIERRE)).toMatchObject({
      name: 'École Pierre-De-Coubertin',
      city: 'Montréal',
    });
  });

  it('accepts the common names of UTF-8 and Windows-1252 in any case, and nothing else', () => {
    for (const name of ['utf-8', 'UTF8', 'utf8', ' Utf-8 ']) expect(parseEncoding(name), name).toBe('utf-8');
    for (const name of [
      'windows-1252',
      'Windows-1252',
      'cp1252',
      'CP1252',
      'latin1',
      'Latin-1',
      'ISO-8859-1',
      'iso8859-1',
    ])
      expect(parseEncoding(name), name).toBe('windows-1252');
    for (const name of ['utf-16le', 'shift_jis', 'iso-8859-15', 'ebcdic', 'latin', ''])
      expect(parseEncoding(name), name).toBeUndefined();
  });
});
