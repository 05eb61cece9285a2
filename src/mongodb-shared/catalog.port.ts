// The seam between the MongoDB store and the search engines on MongoDB, in the room both use and
// neither owns; neither imports the other, and the composition root (src/composition/) hands
// each what the other makes. It goes both ways:
//
// - CatalogExtension, the wing's to the store: fields each school's document carries beside the
//   store's own (derived from the school alone), the indexes over them, and a collection kept per
//   catalog version. The store writes, indexes and cleans them up without knowing their names or
//   what they mean; it never reads them. The search wing builds its own
//   (src/search/mongodb/catalog-extension.ts: SEARCH_EXTENSION) and migrates its fields itself.
// - SchoolCatalog, the store's to the wing: the schools as they are read for serving, in the
//   store's one causal order per instance (served-catalog.ts), and the collections the wing's
//   setup, readiness and migration work on, typed with the extension's fields.
import type { Collection, Document, IndexDescription } from 'mongodb';
import type { CatalogSchool } from '../domain/catalog/catalog.ports.ts';
import type { SchoolDocument } from './school-document.ts';

/** What the composition root hands the store: a catalog extension's fields, indexes and per-version documents. */
export interface CatalogExtension<Fields extends object = object> {
  /** The fields a school's document carries beside the store's, derived from the school alone: written with every write of it. */
  derive(school: CatalogSchool): Fields;
  /**
   * Fields, with their values, that every document derived by this version of the extension
   * holds (among those derive writes): a document holding others was derived by another. A
   * school imported again unchanged is then written again, and counts as updated (its stored
   * document changed, and the catalog's version moves); the extension rewrites the rest itself.
   */
  readonly stamp: Readonly<Record<string, string | number>>;
  /** The indexes the extension needs on the schools collection, created with the store's own. */
  readonly indexes: readonly IndexDescription[];
  /**
   * Of the schools collection's indexes as they exist, the names of those these replace: dropped
   * before these are created, since creating them beside those would fail.
   */
  replaced(existing: readonly ExistingIndex[]): string[];
  /**
   * A collection the extension keeps documents in per catalog version (PerVersionDocument): the
   * store deletes those of every other version once an import has moved the catalog's version.
   * None when undefined.
   */
  readonly perVersion?: string;
}

/** An index as the server lists it (listIndexes), as far as CatalogExtension.replaced reads it. */
export interface ExistingIndex {
  readonly name?: string;
  readonly key?: Readonly<Record<string, unknown>>;
}

/** A document of the extension's per-version collection: the store reads its `version` only. */
export interface PerVersionDocument {
  _id: string;
  /** The catalog version it belongs to: it goes once an import has moved the version on. */
  version: string;
}

/**
 * How a pipeline reads the catalog. `catalog` (the default): as every read of the catalog for
 * serving, never older than the latest this instance's catalog reads have seen (one causal order
 * per instance: a count cached under the version read before it holds every school of that
 * version). `local`: read concern `local` and no session, for Atlas Search's stages ($search,
 * $searchMeta): mongod runs them with no other read concern, and mongot's index follows the
 * collection on its own, eventually, so no session could hold it back anyway.
 */
export type PipelineReads = 'catalog' | 'local';

/** What the store hands the search wing: the schools as searches read them, and the collections for setup and shared documents. */
export interface SchoolCatalog<Fields extends object = object> {
  /**
   * Runs a pipeline on the schools where the catalog is read for serving (a fresh-enough
   * secondary, majority reads, in this instance's causal order unless `reads` is `local`), within
   * the store's operation time limit. A server that cannot answer now is StoreUnavailableError;
   * any other server error is thrown as the driver threw it (the wing reads a missing index in it).
   */
  aggregate(pipeline: Document[], reads?: PipelineReads): Promise<Document[]>;
  /**
   * The catalog's version, as the catalog is read for serving: it moves with every import that
   * changes a school, and is never older than one this instance read before.
   */
  catalogVersion(): Promise<string>;
  /** What one operation of the store may take on the server (its maxTimeMS): a pipeline's bound. */
  readonly operationTimeLimitMs: number;
  /**
   * The schools collection on the primary, with the extension's fields: the wing's setup,
   * readiness checks and migration of its fields go through it.
   */
  readonly schools: Collection<SchoolDocument<Fields>>;
  /**
   * The extension's per-version collection (CatalogExtension.perVersion), on the primary: what
   * every instance on the store shares per catalog version. Undefined when there is none.
   */
  perVersion?<T extends PerVersionDocument>(): Collection<T>;
}
