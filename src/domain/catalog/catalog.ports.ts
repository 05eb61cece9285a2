// The catalog's ports and entities: schools, their records, and the store that keeps them.
// Every method is async so that network stores (MongoDB) fit the same seam as the embedded one.
import type { SchoolKind } from './school-kind.ts';

/** Level, grades, type and tags (school-kind.ts) are each absent when unknown, like the location. */
export interface School extends SchoolKind {
  readonly id: string;
  readonly name: string;
  readonly city: string;
  readonly state: string;
  /** A logo address from the directory, or null when none is known. */
  readonly imageUrl: string | null;
  /**
   * Where the school is, as its directory gives it. Each is absent (not null, not empty) when
   * unknown, so that a catalog of schools without them costs nothing; latitude and longitude
   * (WGS 84 degrees) are both present or both absent.
   */
  readonly address?: string;
  readonly postalCode?: string;
  readonly latitude?: number;
  readonly longitude?: number;
}

/** The location fields of a School, in the order they are written and compared. */
export type SchoolLocation = Pick<School, 'address' | 'postalCode' | 'latitude' | 'longitude'>;

/** A school as a search engine indexes it (src/domain/search/engine.port.ts). */
export interface CatalogSchool extends School {
  readonly aliases: readonly string[];
  /** 0–100: among equally good matches, the more prominent school comes first (flagship before branch). */
  readonly prominence: number;
}

/**
 * A school as the importer hands it to a store: what the store hands back as its catalog, and
 * the key of the row in its source directory (`nces:010000500870`, `ipeds:166027`), which the
 * store keeps (a later import without one keeps the stored key) but does not hand back yet.
 */
export type SchoolDraft = CatalogSchool & { readonly sourceKey?: string };

export interface ImportCounts {
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
}

/** A school's whole record (GET /v1/schools/{id}): what a page shows, its other names, where it came from, when it changed. */
export interface SchoolRecord extends School {
  readonly aliases: readonly string[];
  /** The keys of the directory rows it was imported from (`nces:010000500870`); empty when none was given. */
  readonly sourceIds: readonly string[];
  /** When an import last created or changed it. */
  readonly updatedAt: Date;
}

export interface SchoolStore {
  findById(id: string): Promise<School | null>;
  /** The school's whole record, or null when there is no such school. */
  findRecord(id: string): Promise<SchoolRecord | null>;
  count(): Promise<number>;
  /**
   * Inserts or updates schools by id (a school is "updated" when anything about it differs).
   * Idempotent: calling it again with the same schools completes a call that threw and changes
   * nothing after one that succeeded. The embedded store is also all or nothing; a store without
   * multi-document transactions (MongoDB) may keep part of a call that threw. A call that
   * changed anything changes the catalog's version. `onProgress` is called with the number of
   * schools written so far.
   */
  upsertMany(schools: readonly SchoolDraft[], onProgress?: (done: number) => void): Promise<ImportCounts>;
  /**
   * What upsertMany would count for these schools against the store as it is now, writing
   * nothing: an import's dry run. A school listed twice counts as upsertMany would count it.
   */
  compareMany(schools: readonly SchoolDraft[]): Promise<ImportCounts>;
  /**
   * The catalog's version: it changes whenever an import changes the catalog, from any process.
   * Cheap (search engines ask for it every second). Only equality of two versions means anything.
   */
  catalogVersion(): Promise<string>;
  /**
   * The whole catalog as it is at one version, even while an import writes: its schools in
   * batches, then that version (CatalogChunk). A batch is read when the consumer asks for the
   * next one, so that neither side need hold more than a batch: a search engine builds its
   * index from a million schools without holding them (docs/search.md). Stopping early (a
   * `break`) closes the read.
   */
  readCatalog(): AsyncIterable<CatalogChunk>;
  /**
   * The schools an import changed since the catalog was at `since` (a version this store gave),
   * as they are now, and the version they bring the catalog to: what a search engine applies to
   * the index it has instead of reading the whole catalog (docs/search.md, deltas). undefined
   * when the store cannot tell (a version it does not know, or more than `limit` changed): then
   * the whole catalog is read. Optional: a store without it is always read whole.
   */
  catalogChanges?(since: string, limit: number): Promise<CatalogChanges | undefined>;
}

/** What catalogChanges answers: the changed schools (none removed: an import only adds and changes) and the version they make. */
export interface CatalogChanges {
  readonly version: string;
  readonly schools: readonly CatalogSchool[];
}

/**
 * What readCatalog yields: `schools`, a batch; `restart`, the schools so far are void and come
 * again from the first (a store that cannot read at one version in one pass, MongoDB without a
 * transaction, saw an import change the catalog while it read); `version`, the last: the
 * version the schools since the last `restart` are exactly.
 */
export type CatalogChunk =
  | { readonly kind: 'schools'; readonly schools: readonly CatalogSchool[] }
  | { readonly kind: 'restart' }
  | { readonly kind: 'version'; readonly version: string };
