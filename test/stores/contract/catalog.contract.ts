// SchoolStore as a search engine reads it: the whole catalog with what ranking needs (aliases,
// prominence), a version that changes exactly when an import changed something, and the
// in-process engine on top giving the reference engine's answers for the catalog the store kept.
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../../src/domain/catalog/catalog.ports.ts';
import type { SchoolStore } from '../../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../../src/domain/search/query.ts';
import { MemorySearchEngine } from '../../../src/search/memory/memory.engine.ts';
import { ReferenceEngine } from '../../../src/search/reference.engine.ts';
import { catalogued, school } from '../../support/builders.ts';
import { readWholeCatalog } from '../../support/catalog-read.ts';
import type { ContractPart } from './context.ts';

const MIT = school('Massachusetts Institute of Technology', {
  city: 'Cambridge',
  image_url: 'https://logos.example.com/mit.svg',
  aliases: ['MIT'],
  prominence: 100,
  level: 'postsecondary',
  type: 'postsecondary',
  tags: ['private_control'],
});
// Location: Smith's postal code only, Laval's all four; readCatalog hands over exactly the known ones.
const SMITH = school('Smith College', { city: 'Northampton', prominence: 40, postal_code: '01063' });
const LAVAL = school('Université Laval', {
  city: 'Québec',
  stateprovince: 'QC',
  address: '2325, rue de l’Université',
  postal_code: 'G1V 0A6',
  latitude: 46.7817,
  longitude: -71.2748,
});

async function readAll(schools: SchoolStore): Promise<{ version: string; batches: number; rows: CatalogSchool[] }> {
  const { version, batches, schools: rows } = await readWholeCatalog(schools);
  return { version, batches, rows: rows.sort((a, b) => (a.id < b.id ? -1 : 1)) };
}

const byId = (list: CatalogSchool[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));

export const catalogContract: ContractPart = (_target, fixture) => {
  describe('SchoolStore catalog', () => {
    test('when schools are upserted, then readCatalog hands over each with its aliases and prominence, at the current version', async () => {
      const { store } = fixture();
      const empty = await readAll(store.schools);
      expect(empty.rows).toStrictEqual([]);
      await store.schools.upsertMany([MIT, SMITH, LAVAL]);
      const read = await readAll(store.schools);
      expect(read.rows).toStrictEqual(byId([MIT, SMITH, LAVAL].map(catalogued)));
      expect(read.version).toBe(await store.schools.catalogVersion());
      expect(read.version).not.toBe(empty.version);
    });

    test('when an upsert changes a school, then the version changes; when it changes nothing, then it stays', async () => {
      const { store } = fixture();
      await store.schools.upsertMany([MIT, SMITH]);
      const v1 = await store.schools.catalogVersion();
      await store.schools.upsertMany([MIT, SMITH]);
      expect(await store.schools.catalogVersion()).toBe(v1);
      for (const change of [
        { ...SMITH, prominence: 41 },
        { ...SMITH, prominence: 41, city: 'Amherst' },
        { ...SMITH, prominence: 41, city: 'Amherst', aliases: ['Smith'] },
        { ...SMITH, prominence: 41, city: 'Amherst', aliases: ['Smith'], latitude: 42.3181, longitude: -72.6383 },
      ]) {
        const before = await store.schools.catalogVersion();
        await store.schools.upsertMany([change]);
        expect(await store.schools.catalogVersion()).not.toBe(before);
      }
      await store.schools.upsertMany([LAVAL]);
      expect((await readAll(store.schools)).rows.find((r) => r.id === SMITH.id)).toStrictEqual({
        ...catalogued(SMITH),
        prominence: 41,
        city: 'Amherst',
        aliases: ['Smith'],
        latitude: 42.3181,
        longitude: -72.6383,
      });
    });

    test('when the catalog is larger than a batch, then it comes in several batches, every school once', async () => {
      const { store } = fixture();
      const many = Array.from({ length: 2500 }, (_, i) => school(`Batch Academy ${i}`, { prominence: i % 101 }));
      await store.schools.upsertMany(many);
      const read = await readAll(store.schools);
      expect(read.batches).toBeGreaterThan(1);
      expect(read.rows).toStrictEqual(byId(many.map(catalogued)));
    });

    test('when the store is reopened, then the catalog and its version are the same', async () => {
      const f = fixture();
      await f.store.schools.upsertMany([MIT, SMITH, LAVAL]);
      const before = await readAll(f.store.schools);
      const reopened = await f.reopen();
      expect((await readAll(reopened.schools)).rows).toStrictEqual(before.rows);
    });

    test('when the in-process engine indexes this store, then it answers as the reference engine does on the same schools', async () => {
      const { store } = fixture();
      const drafts = [
        MIT,
        SMITH,
        LAVAL,
        school("St. Mary's College", { city: 'Notre Dame', stateprovince: 'IN', aliases: ['SMC'], prominence: 30 }),
        school('Saint Mary College', { city: 'Leavenworth', stateprovince: 'KS', prominence: 10 }),
        school('Texas A & M University-College Station', {
          city: 'College Station',
          stateprovince: 'TX',
          prominence: 100,
        }),
        school('Texas A & M University-Kingsville', { city: 'Kingsville', stateprovince: 'TX', prominence: 70 }),
        school('École Polytechnique de Montréal', {
          city: 'Montréal',
          stateprovince: 'QC',
          aliases: ['Polytechnique Montréal'],
        }),
        school('Lincoln University', { city: 'Jefferson City', stateprovince: 'MO', prominence: 30 }),
        school('Lincoln University', { city: 'Lincoln University', stateprovince: 'PA', prominence: 32 }),
      ];
      await store.schools.upsertMany(drafts);
      const engine = new MemorySearchEngine(store.schools, { refreshMs: 0 });
      await engine.start();
      const reference = new ReferenceEngine(drafts.map(catalogued));
      for (const text of [
        'mit',
        'st marys',
        'saint mary',
        'texas a&m',
        'lincoln u',
        'ecole montreal',
        'laval university',
        'montreal',
        'smth',
        'univ',
        'zzz college',
      ]) {
        for (const state of [undefined, 'TX', 'QC']) {
          const query = { plan: planQuery(text), state, offset: 0, limit: 5 };
          // The answers alike; the in-process engine's say which edition of its index they are of.
          const { edition, ...answer } = await engine.search(query);
          expect(edition).toBeDefined();
          expect({ text, state, ...answer }).toStrictEqual({ text, state, ...(await reference.search(query)) });
        }
      }
      engine.close();
    });
  });
};
