// The Atlas Search index (definition: atlas-search-index.json). Created by
// `school-search indexes` when MONGODB_SEARCH=atlas, checked at start-up in that mode.
import { readFileSync } from 'node:fs';
import type { Collection, Document, SearchIndexDescription } from 'mongodb';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import { guarded, MongoSetupError } from '../../mongodb-shared/errors.ts';
import { sameSearchIndex } from './same-atlas-definition.ts';

const DEFINITION_FILE = new URL('./atlas-search-index.json', import.meta.url);

export function searchIndexDefinition(name: string): SearchIndexDescription {
  const file = JSON.parse(readFileSync(DEFINITION_FILE, 'utf8')) as { type: 'search'; definition: Document };
  return { name, type: file.type, definition: file.definition };
}

export class SearchIndexMissingError extends MongoSetupError {}

/**
 * `verify`: throws unless the index exists and is queryable (searches would fail or miss
 * schools while it builds). `create`: creates it when missing; one whose definition means
 * something else than the committed file is updated (Atlas rebuilds it in the background); one
 * that means the same (same-atlas-definition.ts) is left alone, so running the command again
 * does not trigger a rebuild.
 */
export async function ensureSearchIndex<T extends Document>(
  schools: Collection<T>,
  name: string,
  mode: 'verify' | 'create',
): Promise<void> {
  let existing: Document[];
  try {
    existing = await guarded(() => schools.listSearchIndexes(name).toArray());
  } catch (error) {
    // Not now (a network error, a step-down) is not "never": it stays a StoreUnavailableError.
    if (error instanceof StoreUnavailableError) throw error;
    // The operator's one log line: what is wrong and what to do, as the other setup errors say.
    throw new SearchIndexMissingError(
      `MONGODB_SEARCH=atlas needs Atlas Search, which this server does not offer (${error instanceof Error ? error.message : String(error)}): use MongoDB Atlas, or set MONGODB_SEARCH=memory (the default) or text`,
      { cause: error },
    );
  }
  const wanted = searchIndexDefinition(name);
  const index = existing[0];
  if (mode === 'verify') {
    if (!index)
      throw new SearchIndexMissingError(
        `the Atlas Search index "${name}" does not exist: create it with \`npx school-search indexes\``,
      );
    if (index['queryable'] !== true) {
      throw new SearchIndexMissingError(
        `the Atlas Search index "${name}" is not queryable yet (status ${String(index['status'])}): wait until Atlas has built it`,
      );
    }
    return;
  }
  if (!index) await guarded(() => schools.createSearchIndex(wanted));
  else if (!sameSearchIndex((index['latestDefinition'] ?? {}) as Document, wanted.definition)) {
    await guarded(() => schools.updateSearchIndex(name, wanted.definition));
  }
}
