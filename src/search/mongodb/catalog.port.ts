// The port between the search engines on MongoDB and the store that holds the catalog. The search
// wing defines it; the MongoDB store implements it (src/stores/mongodb/school.store.ts), importing
// these types and nothing else of the wing; the composition root (src/composition/) hands the one to
// the other. It goes both ways:
//
// - SchoolSearchFields, the wing's to the store: what each school's document carries for search
//   (search.fields.ts derives it from the school) and the indexes over it (search.indexes.ts). The
//   store writes and indexes them with every school, and compares their version; it never reads them.
// - SearchCatalog, the store's to the wing: pipelines run on the schools as searches read them, the
//   catalog's version, the collection itself for the wing's own setup and readiness checks, and
//   the collection where the wing keeps what its instances share per catalog version (totals).
//
// What a document holds for the engines to read (SearchedSchool) is part of the port too: the
// pipelines name those fields, and the store's documents must hold them.
import type { Collection, Document, IndexDescription } from 'mongodb';
import type { CatalogSchool } from '../../domain/catalog/catalog.ports.ts';
import type { Grade, SchoolLevel, SchoolTag, SchoolType } from '../../domain/catalog/school-kind.ts';
import type { DerivedSearch, SearchFields } from './search.fields.ts';

export type { DerivedSearch, GeoJsonPoint, SearchFields } from './search.fields.ts';

/** What the wing hands the store: the search fields of a school's document, and the indexes over them. */
export interface SchoolSearchFields {
  /**
   * The derivation's version (`searchVersion` in every document): a document of another version
   * is rewritten by `school-search indexes`, and a re-imported school holding one counts as updated.
   */
  readonly version: number;
  /** The fields a school's document carries for search, derived from the school alone. */
  derive(school: CatalogSchool): DerivedSearch;
  /**
   * The indexes the wing's queries need on the schools collection, created with the store's own.
   * A collection holds one text index at most: the store drops one these do not name.
   */
  readonly indexes: readonly IndexDescription[];
}

/**
 * How a pipeline reads the catalog. `catalog` (the default): as every read of the catalog for
 * serving, never older than the latest this store's catalog reads have seen (one causal order per
 * instance: a count cached under the version read before it holds every school of that version).
 * `local`: read concern `local` and no session, for Atlas Search's stages ($search, $searchMeta):
 * mongod runs them with no other read concern, and mongot's index follows the collection on its
 * own, eventually, so no session could hold it back anyway.
 */
export type PipelineReads = 'catalog' | 'local';

/** What the store hands the wing: the schools as searches read them, and the collections for setup and totals. */
export interface SearchCatalog {
  /**
   * Runs a pipeline on the schools where the catalog is read for serving (a fresh-enough
   * secondary, majority reads, in this instance's causal order unless `reads` is `local`), within
   * the store's operation time limit. A server that cannot answer now is StoreUnavailableError;
   * any other server error is thrown as the driver threw it (the wing reads a missing index in
   * it: setup.ts).
   */
  aggregate(pipeline: Document[], reads?: PipelineReads): Promise<Document[]>;
  /**
   * The catalog's version, as the catalog is read for serving: it moves with every import that
   * changes a school, and is never older than one this store read before.
   */
  catalogVersion(): Promise<string>;
  /** What one operation of the store may take on the server (its maxTimeMS): a pipeline's bound. */
  readonly operationTimeLimitMs: number;
  /**
   * The schools collection, on the primary: the wing's setup and readiness checks go through it
   * (its indexes, the version of its fields, the Atlas Search index).
   */
  readonly collection: Collection<Document>;
  /**
   * Where the wing keeps what every instance on the store shares per catalog version (the $text
   * engine's totals: search-totals.ts), on the primary. The store deletes the documents of every
   * other version once an import has moved the catalog's version (none is asked for again), and
   * reads nothing else of them. Undefined when the store keeps none.
   */
  readonly totals?: Collection<SearchTotalDocument> | undefined;
}

/** A document of SearchCatalog.totals: one shared total of one catalog version. */
export interface SearchTotalDocument {
  /** `<version> <key>`: the catalog version and the engine's key for the total (query words and scope). */
  _id: string;
  /** The catalog version it was counted at: the store deletes it once the version has moved on. */
  version: string;
  /** The total, once counted. */
  n?: number;
  /** Until when the instance counting it holds its claim. */
  until?: Date;
}

/** A school's document as the engines read it: a candidate's projection, Atlas's stored source. */
export interface SearchedSchool {
  _id: string;
  name: string;
  city: string;
  state: string;
  imageUrl: string | null;
  address?: string;
  postalCode?: string;
  latitude?: number;
  longitude?: number;
  level?: SchoolLevel;
  lowestGrade?: Grade;
  highestGrade?: Grade;
  type?: SchoolType;
  tags?: readonly SchoolTag[];
  aliases: string[];
  prominence: number;
  sortKey: string;
  search: SearchFields;
}
