// Import idempotence through the real importer: the file read twice, written twice, changes
// the store once.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { importFile } from '../../../src/import/import.service.ts';
import type { ContractPart } from './context.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/schools.ndjson', import.meta.url));
const MIT_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const ODEF_FIXTURE = fileURLToPath(new URL('../../fixtures/odef-sample.csv', import.meta.url));

export const importContract: ContractPart = (_target, fixture) => {
  describe('import', () => {
    test('when the same file is imported twice, then the second import changes nothing', async () => {
      const { store } = fixture();
      const first = await importFile(store, FIXTURE, {});
      expect([first.rows, first.counts, first.skipped]).toStrictEqual([
        3,
        { inserted: 3, updated: 0, unchanged: 0 },
        {},
      ]);
      expect(await store.schools.count()).toBe(3);
      const second = await importFile(store, FIXTURE, {});
      expect([second.rows, second.counts, second.skipped]).toStrictEqual([
        3,
        { inserted: 0, updated: 0, unchanged: 3 },
        {},
      ]);
      expect(await store.schools.count()).toBe(3);
      expect(await store.schools.findById(MIT_ID)).toStrictEqual({
        id: MIT_ID,
        name: 'Massachusetts Institute of Technology',
        city: 'Cambridge',
        state: 'MA',
        imageUrl: 'https://logos.example.com/mit.svg',
      });
    });

    test('when the ODEF file is imported, then its duplicates are merged, the locations kept, and a second import changes nothing', async () => {
      const f = fixture();
      const first = await importFile(f.store, ODEF_FIXTURE, {});
      expect([first.rows, first.schools, first.duplicates.length, first.counts]).toStrictEqual([
        30,
        28,
        2,
        { inserted: 28, updated: 0, unchanged: 0 },
      ]);
      const reopened = await f.reopen();
      // Line 22 replaces line 4 (one Source_Id): the later row's values.
      const marquette = first.duplicates.find((d) => d.line === 22)!.id;
      expect(await reopened.schools.findById(marquette)).toStrictEqual({
        id: marquette,
        name: 'École secondaire Père-Marquette',
        city: 'Montréal',
        state: 'QC',
        imageUrl: null,
        address: '6030, rue Marquette',
        postalCode: 'H2G 2Y3',
        latitude: 45.5446,
        longitude: -73.5836,
        level: 'high',
        lowestGrade: '7',
        highestGrade: '11',
      });
      expect((await importFile(reopened, ODEF_FIXTURE, {})).counts).toStrictEqual({
        inserted: 0,
        updated: 0,
        unchanged: 28,
      });
    });

    test('when the store is reopened after an import, then the second import still changes nothing', async () => {
      const f = fixture();
      await importFile(f.store, FIXTURE, {});
      const reopened = await f.reopen();
      expect((await importFile(reopened, FIXTURE, {})).counts).toStrictEqual({ inserted: 0, updated: 0, unchanged: 3 });
      expect(await reopened.schools.count()).toBe(3);
    });
  });
};
