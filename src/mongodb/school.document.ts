// A school's document in the `schools` collection as both users of the driver read it: the one
// mapping from the store's fields of a document to the domain's School and CatalogSchool. The
// MongoDB store reads its schools with it; the search engines on MongoDB read their candidates
// with it (src/search/mongodb/candidates.ts).
import type { CatalogSchool, School } from '../domain/catalog/catalog.ports.ts';
import {
  knownKind,
  type Grade,
  type SchoolLevel,
  type SchoolTag,
  type SchoolType,
} from '../domain/catalog/school-kind.ts';
import { knownLocation } from '../domain/catalog/school-location.ts';

/** The store's own fields of a school's document (beside them, the search wing's). Ids are the domain's own, so a school is found by the id the API hands out. */
export interface SchoolFields {
  _id: string;
  name: string;
  city: string;
  state: string;
  imageUrl: string | null;
  /** Absent when unknown (never null), as on the School; documents written before they existed have none. */
  address?: string;
  postalCode?: string;
  latitude?: number;
  longitude?: number;
  /** What the school is (src/domain/catalog/school-kind.ts): absent when unknown, as the location; tags absent when none. */
  level?: SchoolLevel;
  lowestGrade?: Grade;
  highestGrade?: Grade;
  type?: SchoolType;
  tags?: readonly SchoolTag[];
  /** The row's key in its directory (`nces:010000500870`); absent when the import gave none. */
  sourceKey?: string;
  /**
   * When an import last created or changed the school. Absent on documents written before 1.3:
   * `school-search indexes` rewrites those (SEARCH_FIELDS_VERSION 3), giving them its time, and
   * so does an import of the school (a rewrite of its search fields alone keeps a time it has).
   */
  updatedAt?: Date;
  aliases: string[];
  /** 0–100: the static rank of the search core (src/domain/search/ranking-rules.ts). */
  prominence: number;
  /** The sort key of the name (src/domain/shared/normalize.ts): the rules' last tie-break. */
  sortKey: string;
}

/** What a School shows of a document: a projection naming these reads them. */
export const LOCATION_FIELDS = { address: 1, postalCode: 1, latitude: 1, longitude: 1 } as const;
export const KIND_FIELDS = { level: 1, lowestGrade: 1, highestGrade: 1, type: 1, tags: 1 } as const;

/** The projection of what toSchool reads (with `_id`, which a projection keeps unless told not to). */
export const SCHOOL_FIELDS = { name: 1, city: 1, state: 1, imageUrl: 1, ...LOCATION_FIELDS, ...KIND_FIELDS } as const;
/** The projection of what toCatalogSchool reads (with `_id`). */
export const CATALOG_SCHOOL_FIELDS = { ...SCHOOL_FIELDS, aliases: 1, prominence: 1 } as const;

/** The fields of a document toSchool reads. */
export type SchoolShown = Pick<SchoolFields, '_id' | keyof typeof SCHOOL_FIELDS>;
/** The fields of a document toCatalogSchool reads (and what decides whether a school changed). */
export type CatalogSchoolShown = Pick<SchoolFields, '_id' | keyof typeof CATALOG_SCHOOL_FIELDS>;

/**
 * The School a document holds. Documents written before the location and kind fields existed
 * have none: unknown, as a file without the columns. A null logo may be absent where a server
 * leaves nulls out (Atlas Search's stored source): null.
 */
export function toSchool(d: SchoolShown): School {
  return {
    id: d._id,
    name: d.name,
    city: d.city,
    state: d.state,
    imageUrl: d.imageUrl ?? null,
    ...knownLocation(d),
    ...knownKind(d),
  };
}

/** The CatalogSchool a document holds: what an engine indexes, and what an import compares. */
export function toCatalogSchool(d: CatalogSchoolShown): CatalogSchool {
  // Documents written before prominence existed have none: 0, as a file without the column.
  return { ...toSchool(d), aliases: d.aliases ?? [], prominence: d.prominence ?? 0 };
}
