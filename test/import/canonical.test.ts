// The canonical CSV and NDJSON formats: what an operator writes by hand or exports.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/domain/ids.ts';
import { nameSortKey } from '../../src/domain/search/normalize.ts';
import { namesFound, searchStore } from '../support/search.ts';
import { UnknownFormatError } from '../../src/import/errors.ts';
import { importFile } from '../../src/import/import.service.ts';
import { IDENTICAL_DUPLICATE } from '../../src/import/read.ts';
import { FIXTURES, tempStore, type TempStore } from './temp-store.ts';

/** The id a row without schoolid gets (src/domain/school.draft.ts). */
const derivedId = (name: string, city: string, state: string) =>
  uuidV5(`name:${nameSortKey(name)}|${nameSortKey(city)}|${state}`);

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
    expect(report.rows).toBe(4);
    expect(report.counts).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    // The quoted name spanning two lines is, once its whitespace is collapsed, the same school as line 7.
    expect(report.skipped).toEqual({ [IDENTICAL_DUPLICATE]: 1 });

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
    expect(smc.hits.map((h) => [h.school.id, h.school.name])).toEqual([[derivedId("Saint Mary's College", 'Notre Dame', 'IN'), "Saint Mary's College"]]);
    expect(await namesFound(t.store, 'cal', { limit: 5 })).toEqual(['University of California, Berkeley']);
  });

  it('reads CRLF line ends and a UTF-8 byte order mark, and updates changed rows on re-import', async () => {
    const rows = ['schoolname,city,stateprovince', 'Université Laval,Québec,QC', 'Reed College,Portland,OR'];
    const first = t.file('bom.csv', `\uFEFF${rows.join('\r\n')}\r\n`);
    expect((await importFile(t.store, first)).counts).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(await t.store.schools.findById(derivedId('Université Laval', 'Québec', 'QC'))).toMatchObject({ name: 'Université Laval' });

    const changed = t.file('changed.csv', 'schoolname,city,stateprovince,image_url\nReed College,Portland,OR,https://reed.example/logo.png\nUniversité Laval,Québec,QC,\n');
    expect((await importFile(t.store, changed)).counts).toEqual({ inserted: 0, updated: 1, unchanged: 1 });
    expect((await t.store.schools.findById(derivedId('Reed College', 'Portland', 'OR')))?.imageUrl).toBe('https://reed.example/logo.png');
  });
});

describe('canonical NDJSON', () => {
  it('imports objects line by line, ignoring blank lines and surrounding spaces', async () => {
    const report = await importFile(t.store, join(FIXTURES, 'schools.ndjson'));
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
    expect(await t.store.schools.findById(derivedId('École Polytechnique de Montréal', 'Montréal', 'QC'))).toMatchObject({ imageUrl: null });
    expect((await searchStore(t.store, 'polytechnique montreal')).total).toBe(1);
    expect((await importFile(t.store, join(FIXTURES, 'schools.ndjson'))).counts).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
  });

  it('tells the format from .jsonl, from a leading "{" and from --format', async () => {
    const line = '{"schoolname":"Reed College","city":"Portland","stateprovince":"OR"}\r\n';
    expect((await importFile(t.store, t.file('a.jsonl', line))).format).toBe('ndjson');
    expect((await importFile(t.store, t.file('a.txt', line))).format).toBe('ndjson');
    expect((await importFile(t.store, t.file('b.txt', 'schoolname,city,stateprovince\nReed College,Portland,OR\n'))).format).toBe('csv');
    expect((await importFile(t.store, t.file('c.data', line), { format: 'ndjson' })).counts).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    await expect(importFile(t.store, t.file('d.txt', 'name;town\n'))).rejects.toBeInstanceOf(UnknownFormatError);
  });
});
