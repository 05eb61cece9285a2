// school-search indexes: creates the store's indexes now (MongoDB), including the Atlas Search
// index when MONGODB_SEARCH=atlas. The API also creates the ordinary ones at start-up.
import { loadConfig } from '../config.ts';
import { SCHOOL_SEARCH_FIELDS } from '../search/mongodb/search.indexes.ts';
import { createSearchSetup } from '../search/mongodb/setup.ts';
import { MongoStore } from '../stores/mongodb/store.ts';
import { COLLECTIONS } from '../stores/mongodb/documents.ts';
import { storeLocation } from '../composition/store.ts';
import { EXIT, INDEXES_HELP, UsageError } from './usage.ts';

export async function indexesCommand(args: string[]): Promise<number> {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    process.stdout.write(INDEXES_HELP);
    return EXIT.ok;
  }
  if (args.length > 0) throw new UsageError('indexes takes no arguments.');
  const config = loadConfig();
  if (config.store.kind !== 'mongodb') {
    process.stdout.write(`The embedded store (${config.store.path}) creates its indexes itself; nothing to do.\n`);
    return EXIT.ok;
  }
  const store = await MongoStore.open({
    uri: config.store.uri,
    searchFields: SCHOOL_SEARCH_FIELDS,
    indexes: 'none',
    waitForIndexBuilds: true,
  });
  try {
    // Search fields of an earlier version first: the indexes are built over the current ones.
    const upgraded = await store.schools.upgradeSearchFields();
    await store.createIndexes();
    if (config.store.search.kind !== 'memory') await createSearchSetup(store.db, store.schools, config.store.search);
    const lines = Object.entries(store.indexes).flatMap(([key, indexes]) =>
      indexes.map((i) => `  ${COLLECTIONS[key as keyof typeof COLLECTIONS]}.${i.name}\n`),
    );
    if (config.store.search.kind === 'atlas') {
      lines.push(
        `  schools.${config.store.search.index} (Atlas Search; builds in the background: see its status in Atlas)\n`,
      );
    }
    if (config.store.search.kind === 'atlas')
      lines.push(`  search_synonyms, search_translations (the index's synonym mappings)\n`);
    const note = upgraded > 0 ? `Search fields rewritten: ${upgraded} schools (written by an earlier version).\n` : '';
    process.stdout.write(`${note}Indexes of ${storeLocation(config.store)}:\n${lines.join('')}`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
