// `school-search indexes` on MongoDB: the search wing's fields of an earlier version rewritten,
// the store's indexes (the wing's among them, handed as its catalog extension) and the wing's
// Atlas Search setup, made now (the API makes the ordinary ones at start-up too; an index build
// on a large collection is better started by an operator than by the first instance of a new version).
import { SEARCH_EXTENSION } from '../search/mongodb/catalog-extension.ts';
import { upgradeSearchFields } from '../search/mongodb/search-fields.migration.ts';
import { createSearchSetup } from '../search/mongodb/setup.ts';
import { MongoStore } from '../stores/mongodb/store.ts';
import type { StoreConfig } from '../stores/store.config.ts';

export interface IndexesMade {
  /** Schools whose search fields an earlier version wrote, rewritten first (the indexes are built over the current ones). */
  readonly rewritten: number;
  /** What the store holds now, one line each (`collection.index`, and what Atlas builds in the background). */
  readonly indexes: readonly string[];
}

export async function makeIndexes(config: Extract<StoreConfig, { kind: 'mongodb' }>): Promise<IndexesMade> {
  // No socket timeout: a build on a large collection answers only when it is done.
  const store = await MongoStore.open({
    uri: config.uri,
    extension: SEARCH_EXTENSION,
    indexes: 'none',
    waitForIndexBuilds: true,
  });
  try {
    const rewritten = await upgradeSearchFields(store.catalog);
    await store.createIndexes();
    if (config.search.kind !== 'memory') await createSearchSetup(store.catalog, config.search);
    const indexes = store.indexNames();
    if (config.search.kind === 'atlas') {
      indexes.push(`schools.${config.search.index} (Atlas Search; builds in the background: see its status in Atlas)`);
    }
    return { rewritten, indexes };
  } finally {
    await store.close();
  }
}
