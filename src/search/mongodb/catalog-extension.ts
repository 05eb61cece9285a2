// What the search wing keeps in the store's database, handed to the store as a catalog extension
// (src/mongodb-shared/catalog.port.ts: CatalogExtension) by the composition root: the search fields of
// each school's document (search-fields.ts), the indexes over them, which the store creates with
// its own at start-up and in `school-search indexes` (after dropping a text index these replace),
// and the collection of the $text engine's totals shared per catalog version (search-totals.ts).
// The store writes and cleans them up without knowing what they are; the wing alone reads them,
// checks their version (setup.ts) and rewrites those of an older one (search-fields.migration.ts).
import type { IndexDescription } from 'mongodb';
import type { CatalogExtension, ExistingIndex } from '../../mongodb-shared/catalog.port.ts';
import { deriveSearch, SEARCH_FIELDS_VERSION, type DerivedSearch } from './search-fields.ts';

/** The $text engine's index: one per collection. */
export const TEXT_INDEX = 'schools_tokens_text';

/** Finds the documents whose search fields are of another version (readiness, `school-search indexes`). */
export const SEARCH_VERSION_INDEX = 'schools_search_version';

/** The $text engine's totals shared by every instance per catalog version (search-totals.ts). */
export const SEARCH_TOTALS = 'search_totals';

export const SEARCH_INDEXES: readonly IndexDescription[] = [
  {
    name: TEXT_INDEX,
    // One token per way a query word can match, each once, behind the school's state (search-fields.ts).
    key: { tokens: 'text' },
    // 'none': no stemming and no stop words; the domain has normalised the terms already.
    default_language: 'none',
    // The default override field, `language`, would let a document pick a stemmer; no field has this name.
    language_override: 'textIndexLanguage',
  },
  // Readiness and `school-search indexes` find documents of an older search version through it.
  { name: SEARCH_VERSION_INDEX, key: { searchVersion: 1 } },
];

/**
 * A collection holds one text index at most: one of an earlier version (another name, over other
 * fields) would make creating the current one fail, so it goes first. Searches in text mode answer
 * 503 until the new one is built.
 */
export function replacedIndexes(existing: readonly ExistingIndex[]): string[] {
  const names = new Set(SEARCH_INDEXES.map((index) => index.name));
  return existing
    .filter((index) => Object.values(index.key ?? {}).includes('text') || '_fts' in (index.key ?? {}))
    .flatMap((index) => (index.name && !names.has(index.name) ? [index.name] : []));
}

/** The search wing's catalog extension: what the store writes, indexes and cleans up for it. */
export const SEARCH_EXTENSION: CatalogExtension<DerivedSearch> = {
  derive: deriveSearch,
  stamp: { searchVersion: SEARCH_FIELDS_VERSION },
  indexes: SEARCH_INDEXES,
  replaced: replacedIndexes,
  perVersion: SEARCH_TOTALS,
};
