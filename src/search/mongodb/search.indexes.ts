// What the search wing keeps on the schools collection, handed to the store through the port
// (catalog.port.ts: SchoolSearchFields): the search fields of each document (search.fields.ts) and
// the indexes over them, which the store creates with its own at start-up and in `school-search indexes`.
import type { IndexDescription } from 'mongodb';
import type { SchoolSearchFields } from './catalog.port.ts';
import { deriveSearch, SEARCH_FIELDS_VERSION } from './search.fields.ts';

/** The $text engine's index: one per collection. */
export const TEXT_INDEX = 'schools_tokens_text';

/** Finds the documents whose search fields are of another version (readiness, `school-search indexes`). */
export const SEARCH_VERSION_INDEX = 'schools_search_version';

export const SEARCH_INDEXES: readonly IndexDescription[] = [
  {
    name: TEXT_INDEX,
    // One token per way a query word can match, each once, behind the school's state (search.fields.ts).
    key: { tokens: 'text' },
    // 'none': no stemming and no stop words; the domain has normalised the terms already.
    default_language: 'none',
    // The default override field, `language`, would let a document pick a stemmer; no field has this name.
    language_override: 'textIndexLanguage',
  },
  // Readiness and `school-search indexes` find documents of an older search version through it.
  { name: SEARCH_VERSION_INDEX, key: { searchVersion: 1 } },
];

export const SCHOOL_SEARCH_FIELDS: SchoolSearchFields = {
  version: SEARCH_FIELDS_VERSION,
  derive: deriveSearch,
  indexes: SEARCH_INDEXES,
};
