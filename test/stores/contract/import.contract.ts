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
        27,
        2,
        { inserted: 27, updated: 0, unchanged: 0 },
      ]);
      const reopened = await f.reopen();
      const pierre = await reopened.schools.findById(first.duplicates[1]!.id);
      expect(pierre).toStrictEqual({
        id: first.duplicates[1]!.id,
        name: 'École Pierre-De-Coubertin',
        city: 'Montréal',
        state: 'QC',
        imageUrl: null,
        address: '8555, rue Pascal-Gagnon',
        postalCode: 'H1P 1Y6',
        latitude: 45.6052,
        longitude: -73.5912,
        level: 'elementary',
        lowestGrade: 'K',
        highestGrade: '6',
      });
      expect((await importFile(reopened, ODEF_FIXTURE, {})).counts).toStrictEqual({
        inserted: 0,
        updated: 0,
        unchanged: 27,
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
