// The Atlas Search index (definition: schools.search-index.json). Created by
// `school-search indexes` when MONGODB_SEARCH=atlas, checked at start-up in that mode.
import { readFileSync } from 'node:fs';
import type { Collection, Document, SearchIndexDescription } from 'mongodb';
import { guarded } from './errors.ts';

const DEFINITION_FILE = new URL('./schools.search-index.json', import.meta.url);

export function searchIndexDefinition(name: string): SearchIndexDescription {
  const file = JSON.parse(readFileSync(DEFINITION_FILE, 'utf8')) as { type: 'search'; definition: Document };
  return { name, type: file.type, definition: file.definition };
}

export class SearchIndexMissingError extends Error {}

/**
 * `verify`: throws when the index does not exist (searches would fail or find nothing).
 * `create`: creates it when missing; an existing one is updated to the committed definition.
 */
export async function ensureSearchIndex(schools: Collection, name: string, mode: 'verify' | 'create'): Promise<void> {
  let existing: Document[];
  try {
    existing = await guarded(() => schools.listSearchIndexes(name).toArray());
  } catch (error) {
    throw new SearchIndexMissingError(
      `MONGODB_SEARCH=atlas needs Atlas Search, which this server does not offer (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  const wanted = searchIndexDefinition(name);
  if (existing.length === 0) {
    if (mode === 'verify') {
      throw new SearchIndexMissingError(`the Atlas Search index "${name}" does not exist: create it with \`npx school-search indexes\``);
    }
    await guarded(() => schools.createSearchIndex(wanted));
  } else if (mode === 'create') {
    await guarded(() => schools.updateSearchIndex(name, wanted.definition));
  }
}
