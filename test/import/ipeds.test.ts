// The NCES IPEDS directory file exactly as distributed, and the committed seed derived from it.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { uuidV5 } from '../../src/domain/shared/ids.ts';
import { ipedsProminence } from '../../src/import/ipeds.reader.ts';
import { importChecked as importFile } from '../support/import-report.ts';
import { sharedData } from '../support/shared-data.ts';
import { IPEDS, IPEDS_FILE, SEED_FILE, tempStore, type TempStore } from '../support/temp-store.ts';
import { namesFound, searchStore } from '../support/search.ts';

const SKIPPED = {
  'administrative unit (SECTOR=0)': 71,
  'not active in the current year (CYACTIVE=3)': 73,
};
const ipedsId = (unitid: number) => uuidV5(`ipeds:${unitid}`);

let t: TempStore;
beforeEach(async () => {
  t = await tempStore();
});
afterEach(async () => {
  await t.close();
});

describe('prominence from the directory', () => {
  const of = (row: Record<string, string>) => ipedsProminence((c) => row[c]);
  // A main campus (OPEID …00), four-year, of the largest size: 30 + 15 + 15 = 60 before research.
  const big = { INSTSIZE: '5', OPEID: '00182500', ICLEVEL: '1' };

  test('when the row has the 2021 classification (HD2022), then C21BASIC and C21UGPRF give research and selectivity', () => {
    expect(of({ ...big, C21BASIC: '15', C21UGPRF: '15' })).toBe(100);
    expect(of({ ...big, C21BASIC: '16', C21UGPRF: '-2' })).toBe(82);
    // A 2025 column beside the 2021 ones is not read: one classification per file.
    expect(of({ ...big, C21BASIC: '21', CARNEGIERSCH: '1' })).toBe(64);
  });

  test('when the row has the 2025 classification only (HD2024), then CARNEGIERSCH gives research: R1 30, R2 22, research colleges 15', () => {
    expect(of({ ...big, CARNEGIERSCH: '1' })).toBe(90);
    expect(of({ ...big, CARNEGIERSCH: '2' })).toBe(82);
    expect(of({ ...big, CARNEGIERSCH: '3' })).toBe(75);
    expect(of({ ...big, CARNEGIERSCH: '-2' })).toBe(60);
  });
});

const HD2024 = sharedData('ipeds/hd2024.csv.gz');

describe('importing the IPEDS HD2024 file as NCES publishes it (UTF-8, the 2025 Carnegie columns)', () => {
  HD2024.test(
    'imports every active institution, reads its UTF-8 text as such, and ranks by the 2025 research designation',
    async () => {
      const report = await importFile(t.store, HD2024.path);
      expect(report.format).toBe('ipeds');
      expect(report.rows).toBe(6072);
      expect(report.counts).toEqual({ inserted: 5924, updated: 0, unchanged: 0 });
      expect(report.skipped).toEqual({
        'administrative unit (SECTOR=0)': 71,
        // 78 rows have CYACTIVE=3; one of them is also SECTOR=0, and counts there.
        'not active in the current year (CYACTIVE=3)': 77,
      });
      // Ids are UNITIDs, as in HD2022: the same school keeps its id from one year to the next.
      expect(await t.store.schools.findById(ipedsId(166027))).toMatchObject({
        name: 'Harvard University',
        state: 'MA',
      });
      // UTF-8 read as UTF-8 (HD2022 is Windows-1252): no "Ã­" in a name.
      expect((await t.store.schools.findById(ipedsId(449135)))?.name).toBe('Dewey University-Juana Díaz');
      // Prominence without C21BASIC: CARNEGIERSCH (R1) and the rest, so the flagship still comes first.
      expect((await namesFound(t.store, 'purdue university', { limit: 2 }))[0]).toBe('Purdue University-Main Campus');
      // HD2024 spells it "A&M" (HD2022 "A & M"): the same school, the same id, found the same way.
      expect((await namesFound(t.store, 'texas a & m', { limit: 2 }))[0]).toBe('Texas A&M University-College Station');
      expect((await searchStore(t.store, 'harvard', { limit: 1 })).hits[0]!.school.id).toBe(ipedsId(166027));
    },
    60_000,
  );
});

describe('importing the IPEDS HD2022 file', () => {
  IPEDS.test(
    'imports every active institution, detects the format from the header, and skips by policy',
    async () => {
      const report = await importFile(t.store, IPEDS_FILE);
      expect(report.format).toBe('ipeds');
      expect(report.rows).toBe(6256);
      expect(report.counts).toEqual({ inserted: 6112, updated: 0, unchanged: 0 });
      expect(report.skipped).toEqual(SKIPPED);
      expect(await t.store.schools.count()).toBe(6112);

      expect(await t.store.schools.findById(ipedsId(166027))).toEqual({
        id: ipedsId(166027),
        name: 'Harvard University',
        city: 'Cambridge',
        state: 'MA',
        imageUrl: null,
        // ADDR, ZIP, LATITUDE and LONGITUD.
        address: 'Massachusetts Hall',
        postalCode: '02138',
        latitude: 42.374471,
        longitude: -71.118313,
        // Every IPEDS institution is postsecondary; CONTROL 2 (private not-for-profit).
        level: 'postsecondary',
        type: 'postsecondary',
        tags: ['private_control'],
      });
      // A blank ADDR (a single space in the file) is an unknown address, the rest still known.
      const auburn = await t.store.schools.findById(ipedsId(100858));
      expect(auburn).toMatchObject({
        name: 'Auburn University',
        postalCode: '36849',
        latitude: 32.599378,
        tags: ['public_control'],
      });
      // CONTROL 3: private for-profit.
      expect(
        (await searchStore(t.store, 'a better u beauty barber academy', { limit: 1 })).hits[0]!.school,
      ).toMatchObject({ type: 'postsecondary', tags: ['private_control', 'for_profit'] });
      expect(auburn).not.toHaveProperty('address');
      // Windows-1252 0xED decoded as "í", and searchable without the accent.
      expect((await t.store.schools.findById(ipedsId(449135)))?.name).toBe('Dewey University-Juana Díaz');
      expect(await namesFound(t.store, 'dewey diaz', { limit: 5 })).toEqual(['Dewey University-Juana Díaz']);
      // IALIAS "UAH  University of Alabama Huntsville": two aliases, split on the run of spaces,
      // so "uah" is a whole alternative name: equality, first, scored 0.97.
      const uah = await searchStore(t.store, 'uah', { limit: 5 });
      expect(uah.hits[0]).toMatchObject({
        school: { id: ipedsId(100706), name: 'University of Alabama in Huntsville' },
        score: 0.97,
      });
      // IALIAS "Penn, U of PA, U-Penn, …": split on commas, so "u of pa" is an alternative name of the University of Pennsylvania.
      expect((await searchStore(t.store, 'u of pa')).hits[0]).toMatchObject({
        school: { id: ipedsId(215062) },
        score: 0.97,
      });
      // "penn" (= pennsylvania) is its name without "University of" (matching.ts, distinctiveKeys): its name.
      expect((await searchStore(t.store, 'penn')).hits[0]).toMatchObject({ school: { id: ipedsId(215062) }, score: 1 });
      // Derived at import (college-aliases.ts): the web address's name and the name's initialisms
      // are alternative names, so they find the college first; campuses under one domain share it
      // and the main campus comes first by prominence.
      for (const [query, unitid] of [
        ['nyu', 193900],
        ['umich', 170976],
        ['pitt', 215293],
        ['jhu', 162928],
        ['sdsu', 122409],
        ['ucla', 110662],
        ['usc', 123961],
      ] as const) {
        expect((await searchStore(t.store, query, { limit: 1 })).hits[0], query).toMatchObject({
          school: { id: ipedsId(unitid) },
          score: 0.97,
        });
      }
      const psu = await namesFound(t.store, 'psu', { limit: 3 });
      expect(psu[0]).toBe('Pennsylvania State University-Main Campus');
      expect(psu[1]).toMatch(/^Pennsylvania State University-/);
      // Prominence from size, Carnegie class, main campus and level: the flagship before its namesakes.
      expect((await namesFound(t.store, 'purdue university', { limit: 2 }))[0]).toBe('Purdue University-Main Campus');
      expect((await namesFound(t.store, 'texas a&m', { limit: 2 }))[0]).toBe('Texas A & M University-College Station');
      // The row with an unescaped quote inside a URL field (line 1410) is read whole.
      expect(await t.store.schools.findById(ipedsId(163657))).toMatchObject({
        name: "Prince George's Community College",
        city: 'Largo',
        state: 'MD',
      });
      // An administrative unit (SECTOR=0) and a closed institution (CYACTIVE=3) are left out.
      expect(await t.store.schools.findById(ipedsId(100733))).toBeNull();
      expect(await t.store.schools.findById(ipedsId(109086))).toBeNull();
    },
    60_000,
  ); // reads and writes 6,256 rows: seconds on a loaded 2-core machine

  IPEDS.test('adds nothing when the same file is imported again', async () => {
    await importFile(t.store, IPEDS_FILE, { format: 'ipeds' });
    const again = await importFile(t.store, IPEDS_FILE, { format: 'ipeds' });
    expect(again.counts).toEqual({ inserted: 0, updated: 0, unchanged: 6112 });
    expect(again.skipped).toEqual(SKIPPED);
    expect(await t.store.schools.count()).toBe(6112);
  });

  IPEDS.test('the committed seed holds exactly what importing the IPEDS file stores', async () => {
    const seeded = await importFile(t.store, SEED_FILE);
    expect(seeded.format).toBe('ndjson');
    expect(seeded.counts).toEqual({ inserted: 6112, updated: 0, unchanged: 0 });
    expect(seeded.skipped).toEqual({});
    const ipeds = await importFile(t.store, IPEDS_FILE);
    expect(ipeds.counts).toEqual({ inserted: 0, updated: 0, unchanged: 6112 });
  });
});
