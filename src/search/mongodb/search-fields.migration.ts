// The rewrite of search fields derived by an earlier version (search-fields.ts:
// SEARCH_FIELDS_VERSION), which `school-search indexes` runs before the indexes are built over
// them. Searches in text or Atlas mode answer 503 until none is left (readiness: setup.ts); the
// in-process engine needs none of them. The store writes current fields with every school it
// imports; the documents it wrote before a change of the derivation are the wing's to rewrite.
import type { AnyBulkWriteOperation } from 'mongodb';
import type { SchoolCatalog } from '../../mongodb-shared/catalog.port.ts';
import { guarded } from '../../mongodb-shared/errors.ts';
import { CATALOG_SCHOOL_FIELDS, rewrittenOwnFields, toCatalogSchool } from '../../mongodb-shared/school-document.ts';
import { deriveSearch, SEARCH_FIELDS_VERSION, type DerivedSearch, type SearchedSchool } from './search-fields.ts';

/** Documents per round trip: as an import's batches. */
const REWRITE_BATCH = 1000;

/**
 * Rewrites the search fields of the documents whose version is not this one, a batch at a time,
 * on the primary; returns how many. The store's own fields derived with them are kept as the
 * store writes them (rewrittenOwnFields: the name's sort key, a time of change where none was kept).
 */
export async function upgradeSearchFields(
  catalog: Pick<SchoolCatalog<DerivedSearch>, 'schools'>,
  onProgress?: (done: number) => void,
): Promise<number> {
  const schools = catalog.schools;
  let done = 0;
  // One time for the whole rewrite, given to the documents written before `updatedAt` existed.
  const now = new Date();
  for (;;) {
    const batch = await guarded(() =>
      schools
        .find(
          { searchVersion: { $ne: SEARCH_FIELDS_VERSION } },
          { projection: { ...CATALOG_SCHOOL_FIELDS, updatedAt: 1 }, limit: REWRITE_BATCH },
        )
        .toArray(),
    );
    if (batch.length === 0) return done;
    await guarded(() =>
      schools.bulkWrite(
        batch.map((d): AnyBulkWriteOperation<SearchedSchool> => {
          const derived = deriveSearch(toCatalogSchool(d));
          return {
            updateOne: {
              filter: { _id: d._id },
              update: {
                $set: { ...derived, ...rewrittenOwnFields(d, now) },
                // `texts`: the search fields of version 1; `geo` of a school whose coordinates are gone.
                $unset: { texts: '', ...(derived.geo === undefined ? { geo: '' } : {}) },
              },
            },
          };
        }),
        { ordered: false },
      ),
    );
    done += batch.length;
    onProgress?.(done);
  }
}
