// SchoolStore: upserts and their counts, look-ups by id, the count. The catalog as engines read
// it: catalog.contract.ts.
import { describe, expect, test } from 'vitest';
import { school, stored } from '../../support/builders.ts';
import type { ContractPart } from './context.ts';

const MIT = school('Massachusetts Institute of Technology', {
  city: 'Cambridge',
  image_url: 'https://logos.example.com/mit.svg',
  aliases: ['MIT'],
});
const SMITH = school('Smith College', { city: 'Northampton' });
const RICE = school('Rice University', {
  city: 'Houston',
  stateprovince: 'TX',
  image_url: 'https://logos.example.com/rice.png',
});
const LAVAL = school('Université Laval', {
  city: 'Québec',
  stateprovince: 'QC',
  address: '2325, rue de l’Université',
  postal_code: 'G1V 0A6',
  latitude: '46.78172',
  longitude: '-71.27480',
});

export const schoolsContract: ContractPart = (_target, fixture) => {
  describe('SchoolStore', () => {
    test('when the store is new, then count is 0 and findById returns null', async () => {
      const { store } = fixture();
      expect(await store.schools.count()).toBe(0);
      expect(await store.schools.findById(MIT.id)).toBeNull();
    });

    test('when new schools are upserted, then all are inserted and findById returns each field for field', async () => {
      const { store } = fixture();
      expect(await store.schools.upsertMany([MIT, SMITH, RICE])).toStrictEqual({
        inserted: 3,
        updated: 0,
        unchanged: 0,
      });
      expect(await store.schools.count()).toBe(3);
      expect(await store.schools.findById(MIT.id)).toStrictEqual(stored(MIT));
      // No logo: null, not undefined or ''.
      expect(await store.schools.findById(SMITH.id)).toStrictEqual({ ...stored(SMITH), imageUrl: null });
      expect(await store.schools.findById(RICE.id)).toStrictEqual(stored(RICE));
    });

    test('when the same drafts are upserted again, then all are unchanged and the count stays', async () => {
      const { store } = fixture();
      await store.schools.upsertMany([MIT, SMITH, RICE]);
      expect(await store.schools.upsertMany([MIT, SMITH, RICE])).toStrictEqual({
        inserted: 0,
        updated: 0,
        unchanged: 3,
      });
      expect(await store.schools.count()).toBe(3);
      expect(await store.schools.findById(MIT.id)).toStrictEqual(stored(MIT));
    });

    test('when only a city or only a logo changes, then that school counts as updated and findById shows the change', async () => {
      const { store } = fixture();
      await store.schools.upsertMany([MIT, SMITH, RICE]);
      const moved = { ...SMITH, city: 'Amherst' };
      const newLogo = { ...RICE, imageUrl: 'https://logos.example.com/rice-2.png' };
      const noLogo = { ...MIT, imageUrl: null };
      expect(await store.schools.upsertMany([moved, RICE, MIT])).toStrictEqual({
        inserted: 0,
        updated: 1,
        unchanged: 2,
      });
      expect(await store.schools.upsertMany([SMITH, newLogo, noLogo])).toStrictEqual({
        inserted: 0,
        updated: 3,
        unchanged: 0,
      });
      expect(await store.schools.findById(SMITH.id)).toStrictEqual(stored(SMITH));
      expect(await store.schools.findById(RICE.id)).toStrictEqual(stored(newLogo));
      expect(await store.schools.findById(MIT.id)).toStrictEqual({ ...stored(MIT), imageUrl: null });
      expect(await store.schools.count()).toBe(3);
    });

    test('when a name, a state or the aliases change, then the school counts as updated', async () => {
      const { store } = fixture();
      await store.schools.upsertMany([MIT, SMITH, RICE]);
      const renamed = school('Smith College of Northampton', {
        city: 'Northampton',
        key: `test:Smith College|Northampton|MA`,
      });
      expect(renamed.id).toBe(SMITH.id);
      const otherState = school('Rice University', {
        city: 'Houston',
        stateprovince: 'LA',
        key: `test:Rice University|Houston|TX`,
        image_url: 'https://logos.example.com/rice.png',
      });
      const moreAliases = school('Massachusetts Institute of Technology', {
        city: 'Cambridge',
        image_url: 'https://logos.example.com/mit.svg',
        aliases: ['MIT', 'Tech'],
      });
      expect(otherState.id).toBe(RICE.id);
      expect(moreAliases.id).toBe(MIT.id);
      expect(await store.schools.upsertMany([renamed, otherState, moreAliases])).toStrictEqual({
        inserted: 0,
        updated: 3,
        unchanged: 0,
      });
      expect(await store.schools.findById(SMITH.id)).toStrictEqual(stored(renamed));
      expect(await store.schools.findById(RICE.id)).toStrictEqual(stored(otherState));
      // Upserting the new versions again is now a no-op.
      expect(await store.schools.upsertMany([renamed, otherState, moreAliases])).toStrictEqual({
        inserted: 0,
        updated: 0,
        unchanged: 3,
      });
    });

    test('when a batch mixes new, changed and unchanged schools, then each is counted once in its kind', async () => {
      const { store } = fixture();
      await store.schools.upsertMany([MIT, SMITH]);
      const moved = { ...MIT, city: 'Boston' };
      expect(await store.schools.upsertMany([RICE, moved, SMITH])).toStrictEqual({
        inserted: 1,
        updated: 1,
        unchanged: 1,
      });
      expect(await store.schools.count()).toBe(3);
    });

    test('when a school has an address, postal code and coordinates, then findById returns them after a reopen; a school without them has none of the keys', async () => {
      const f = fixture();
      const postalOnly = school('Reed College', { city: 'Portland', stateprovince: 'OR', postal_code: '97202' });
      expect(await f.store.schools.upsertMany([LAVAL, SMITH, postalOnly])).toStrictEqual({
        inserted: 3,
        updated: 0,
        unchanged: 0,
      });
      const store = await f.reopen();
      expect(await store.schools.findById(LAVAL.id)).toStrictEqual({
        id: LAVAL.id,
        name: 'Université Laval',
        city: 'Québec',
        state: 'QC',
        imageUrl: null,
        address: '2325, rue de l’Université',
        postalCode: 'G1V 0A6',
        latitude: 46.78172,
        longitude: -71.2748,
      });
      expect(await store.schools.findById(SMITH.id)).toStrictEqual({
        id: SMITH.id,
        name: 'Smith College',
        city: 'Northampton',
        state: 'MA',
        imageUrl: null,
      });
      expect(await store.schools.findById(postalOnly.id)).toStrictEqual({ ...stored(postalOnly), postalCode: '97202' });
      expect(await store.schools.upsertMany([LAVAL, SMITH, postalOnly])).toStrictEqual({
        inserted: 0,
        updated: 0,
        unchanged: 3,
      });
    });

    test('when only the address, the postal code or a coordinate changes, or becomes unknown, then the school counts as updated', async () => {
      const { store } = fixture();
      await store.schools.upsertMany([LAVAL]);
      const { address: _address, ...withoutAddress } = LAVAL;
      const { latitude: _latitude, longitude: _longitude, ...withoutPosition } = LAVAL;
      const changes = [
        { ...LAVAL, address: '2325, rue de l’Université, pavillon Pollack' },
        { ...LAVAL, postalCode: 'G1V 0A7' },
        { ...LAVAL, latitude: 46.7818 },
        { ...LAVAL, longitude: -71.2749 },
        withoutAddress,
        withoutPosition,
        LAVAL,
      ];
      for (const change of changes) {
        expect(await store.schools.upsertMany([change]), JSON.stringify(change)).toStrictEqual({
          inserted: 0,
          updated: 1,
          unchanged: 0,
        });
        expect(await store.schools.findById(LAVAL.id)).toStrictEqual(stored(change));
      }
      expect(await store.schools.upsertMany([LAVAL])).toStrictEqual({ inserted: 0, updated: 0, unchanged: 1 });
    });

    test('when a school has a level, grades, a type and tags, then findById returns them; when any changes or becomes unknown, then the school counts as updated', async () => {
      const { store } = fixture();
      const lincoln = school('Lincoln High School', {
        city: 'Lincoln',
        stateprovince: 'AL',
        lowest_grade: '9',
        highest_grade: '12',
        type: 'public',
        tags: ['charter'],
        key: 'nces:010318001214',
      });
      expect(lincoln).toMatchObject({ level: 'high', lowestGrade: '9', highestGrade: '12', type: 'public' });
      expect(await store.schools.upsertMany([lincoln, SMITH])).toStrictEqual({ inserted: 2, updated: 0, unchanged: 0 });
      expect(await store.schools.findById(lincoln.id)).toStrictEqual(stored(lincoln));
      const smith = await store.schools.findById(SMITH.id);
      for (const key of ['level', 'lowestGrade', 'highestGrade', 'type', 'tags']) expect(smith).not.toHaveProperty(key);
      const { tags: _tags, ...untagged } = lincoln;
      const { level: _level, ...levelUnknown } = lincoln;
      const changes = [
        { ...lincoln, level: 'other' as const },
        { ...lincoln, lowestGrade: '7' as const },
        { ...lincoln, highestGrade: '11' as const },
        { ...lincoln, type: 'private' as const },
        { ...lincoln, tags: ['charter', 'catholic'] as const },
        untagged,
        levelUnknown,
        lincoln,
      ];
      for (const change of changes) {
        expect(await store.schools.upsertMany([change]), JSON.stringify(change)).toStrictEqual({
          inserted: 0,
          updated: 1,
          unchanged: 0,
        });
        expect(await store.schools.findById(lincoln.id)).toStrictEqual(stored(change));
      }
      // The source key is kept, not compared: a canonical re-export without it changes nothing.
      const { sourceKey: _sourceKey, ...keyless } = lincoln;
      expect(await store.schools.upsertMany([keyless])).toStrictEqual({ inserted: 0, updated: 0, unchanged: 1 });
    });

    test('when compareMany is asked about a batch, then it counts as upsertMany would, and writes nothing', async () => {
      const { store } = fixture();
      await store.schools.upsertMany([MIT, LAVAL]);
      const version = await store.schools.catalogVersion();
      const moved = { ...LAVAL, postalCode: 'G1V 0A7' };
      expect(await store.schools.compareMany([RICE, moved, MIT])).toStrictEqual({
        inserted: 1,
        updated: 1,
        unchanged: 1,
      });
      // A school listed twice: the second listing is compared with the first.
      expect(await store.schools.compareMany([RICE, RICE, moved, LAVAL])).toStrictEqual({
        inserted: 1,
        updated: 2,
        unchanged: 1,
      });
      expect(await store.schools.compareMany([])).toStrictEqual({ inserted: 0, updated: 0, unchanged: 0 });
      expect(await store.schools.count()).toBe(2);
      expect(await store.schools.findById(LAVAL.id)).toStrictEqual(stored(LAVAL));
      expect(await store.schools.catalogVersion()).toBe(version);
      expect(await store.schools.upsertMany([RICE, moved, MIT])).toStrictEqual({
        inserted: 1,
        updated: 1,
        unchanged: 1,
      });
    });

    test('when upsertMany reports progress, then the last call gives the number of schools, never more, never going back', async () => {
      const { store } = fixture();
      const calls: number[] = [];
      await store.schools.upsertMany([MIT, SMITH, RICE], (done) => calls.push(done));
      expect(calls.at(-1)).toBe(3);
      expect(calls.every((n, i) => n <= 3 && (i === 0 || n >= calls[i - 1]!))).toBe(true);
    });

    test('when a school is asked for by findRecord, then its record has its other names, source key and time of change; null when none', async () => {
      const { store } = fixture();
      expect(await store.schools.findRecord(MIT.id)).toBeNull();
      const from = Date.now();
      const { sourceKey: _none, ...withoutKey } = SMITH;
      await store.schools.upsertMany([{ ...MIT, sourceKey: 'ipeds:166683' }, withoutKey]);
      const to = Date.now();
      const mit = await store.schools.findRecord(MIT.id);
      expect(mit).toMatchObject({ ...stored(MIT), aliases: ['MIT'], sourceIds: ['ipeds:166683'] });
      expect(mit!.updatedAt.getTime()).toBeGreaterThanOrEqual(from - 1000);
      expect(mit!.updatedAt.getTime()).toBeLessThanOrEqual(to + 1000);
      expect(await store.schools.findRecord(SMITH.id)).toMatchObject({ aliases: [], sourceIds: [] });
    });

    test('when a school is upserted unchanged, then its time of change stays; when it changes, then it moves', async () => {
      const { store } = fixture();
      await store.schools.upsertMany([MIT]);
      const first = (await store.schools.findRecord(MIT.id))!.updatedAt;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await store.schools.upsertMany([MIT]);
      expect((await store.schools.findRecord(MIT.id))!.updatedAt).toStrictEqual(first);
      await store.schools.upsertMany([{ ...MIT, city: 'Boston' }]);
      expect((await store.schools.findRecord(MIT.id))!.updatedAt.getTime()).toBeGreaterThan(first.getTime());
    });
  });
};
