// The Atlas Search index (definition: atlas-search-index.json). Created by
// `school-search indexes` when MONGODB_SEARCH=atlas, checked at start-up in that mode.
import { readFileSync } from 'node:fs';
import type { Collection, Db, Document, SearchIndexDescription } from 'mongodb';
import { synonymsOf, TRANSLATION_GROUPS, WORD_GROUPS } from '../../domain/search/synonyms.ts';
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

/**
 * The collections the index's synonym mappings read (atlas-search-index.json), and what each
 * holds. A translation group holds its words' spellings too, as the rules read it (synonyms.ts,
 * translationsOf: "univ" is a translation of "universidad"); Atlas's equivalent groups are not
 * joined through the `words` mapping, so without them "universidad" would not find "Univ".
 */
export const SYNONYM_SOURCES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  search_synonyms: WORD_GROUPS,
  search_translations: TRANSLATION_GROUPS.map((group) => group.flatMap((w) => [w, ...synonymsOf(w)])),
};

/**
 * Loads the synonym mappings from the reviewed table (src/domain/search/synonyms.ts): one
 * `equivalent` document per group, named by its canonical word. A collection that already holds
 * exactly these is left alone (Atlas re-reads a mapping's collection when it changes); returns
 * the names of the collections it rewrote. Atlas reads the collection while it is written, so it
 * is never emptied: each group is written in place (a document is replaced whole, at once), and
 * only then are the groups the table no longer has deleted. A group both tables have is there
 * throughout; one that moved to another canonical word is there twice for a moment.
 */
export async function ensureSynonyms(db: Db): Promise<string[]> {
  const rewritten: string[] = [];
  for (const [name, groups] of Object.entries(SYNONYM_SOURCES)) {
    const wanted = groups.map((g) => ({ _id: g[0]!, mappingType: 'equivalent', synonyms: [...g] }));
    const collection = db.collection<{ _id: string; mappingType: string; synonyms: string[] }>(name);
    const existing = await guarded(() => collection.find({}).sort({ _id: 1 }).toArray());
    const sorted = [...wanted].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    if (JSON.stringify(existing) === JSON.stringify(sorted)) continue;
    const held = new Map(existing.map((d) => [d._id, JSON.stringify(d)]));
    const changed = sorted.filter((d) => held.get(d._id) !== JSON.stringify(d));
    if (changed.length > 0) {
      await guarded(() =>
        collection.bulkWrite(
          changed.map(({ _id, ...group }) => ({ replaceOne: { filter: { _id }, replacement: group, upsert: true } })),
        ),
      );
    }
    const kept = new Set(sorted.map((d) => d._id));
    const stale = existing.map((d) => d._id).filter((id) => !kept.has(id));
    if (stale.length > 0) await guarded(() => collection.deleteMany({ _id: { $in: stale } }));
    rewritten.push(name);
  }
  return rewritten;
}
