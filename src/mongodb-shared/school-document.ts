// A school's document in the `schools` collection, as both users of the driver read it, and the
// one mapping between it and the domain's schools. The MongoDB store writes it (its own fields,
// and beside them the fields of the catalog extension it is handed: catalog.port.ts), and reads
// its own fields back as Schools; the search engines on MongoDB read the same fields, and their
// own, in their pipelines. The extension's fields are a type parameter here: the store treats
// them as opaque, the search wing fills it in with its search fields
// (src/search/mongodb/search-fields.ts).
import type { CatalogSchool, School, SchoolDraft } from '../domain/catalog/catalog.ports.ts';
import {
  knownKind,
  type Grade,
  type SchoolLevel,
  type SchoolTag,
  type SchoolType,
} from '../domain/catalog/school-kind.ts';
import { knownLocation } from '../domain/catalog/school-location.ts';
import { nameSortKey } from '../domain/shared/normalize.ts';

/** The store's own fields of a school's document. Ids are the domain's own, so a school is found by the id the API hands out. */
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
   * When an import last created or changed the school. Absent on documents written before 1.3,
   * until a rewrite of the extension's fields gives them its time (rewrittenOwnFields), as an
   * import of the school does (a rewrite keeps a time the document has).
   */
  updatedAt?: Date;
  aliases: string[];
  /** 0–100: the static rank of the search core (src/domain/search/ranking-rules.ts). */
  prominence: number;
  /**
   * The ticket of the import that last wrote it (src/stores/mongodb/catalog-tickets.ts): what
   * the changes since a version are found by. Absent on documents written before tickets.
   */
  changedIn?: number;
  /** The sort key of the name (src/domain/shared/normalize.ts): the rules' last tie-break. */
  sortKey: string;
}

/**
 * A school's document: the store's fields and the catalog extension's (`Extension`), which the
 * store writes with every school and never reads. `SchoolDocument` alone is what the store knows.
 */
export type SchoolDocument<Extension extends object = object> = SchoolFields & Extension;

/**
 * One document: the catalog's version, bumped by every import that changes a school, and the
 * tickets imports write under (src/stores/mongodb/catalog-tickets.ts): the last given, those
 * still out, and each recent version's floor. Documents of before tickets have only the version.
 */
export interface CatalogDocument {
  _id: 'schools';
  version: number;
  tickets?: number;
  open?: { ticket: number; at: Date }[];
  floors?: { version: number; floor: number }[];
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

/**
 * A school's document as the store writes it: its own fields and the extension's (a
 * CatalogExtension: catalog.port.ts), derived from the school alone (`storedSourceKey`: the key an earlier import stored, kept when the draft has
 * none). Exported for the tests' and tools' stand-ins of the server, which read what the store writes.
 */
export function toDocument<Extension extends object>(
  s: SchoolDraft,
  extension: { derive(school: CatalogSchool): Extension },
  storedSourceKey?: string,
  updatedAt: Date = new Date(),
): SchoolDocument<Extension> {
  const sourceKey = s.sourceKey ?? storedSourceKey;
  return {
    _id: s.id,
    name: s.name,
    city: s.city,
    state: s.state,
    imageUrl: s.imageUrl,
    // Unknown ones are left out, not written as null (the driver writes undefined as null).
    ...knownLocation(s),
    ...knownKind(s),
    ...(sourceKey === undefined ? {} : { sourceKey }),
    updatedAt,
    aliases: [...s.aliases],
    prominence: s.prominence,
    sortKey: nameSortKey(s.name),
    ...extension.derive({ ...s, prominence: s.prominence }),
  };
}

/**
 * What a rewrite of an outdated document's extension fields (the extension's own migration, not
 * an import) sets of the store's fields, so that the document holds what toDocument would write:
 * the sort key of the name (a change to the normalisation moves both), and, on a document written
 * before the time of change was kept, the rewrite's time (it changed no later: an import since
 * would have given it its own).
 */
export function rewrittenOwnFields(
  d: Pick<SchoolFields, 'name' | 'updatedAt'>,
  now: Date,
): Pick<SchoolFields, 'sortKey' | 'updatedAt'> {
  return { sortKey: nameSortKey(d.name), ...(d.updatedAt === undefined ? { updatedAt: now } : {}) };
}
