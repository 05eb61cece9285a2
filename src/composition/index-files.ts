// Where the in-process index of a store is saved, so that a start reads it instead of building it
// (src/search/memory/index-file.ts; docs/search.md, "The persisted index"): the embedded store's
// beside its file, keyed by the file's identity; a MongoDB instance's in SEARCH_INDEX_DIR, keyed
// by the store's address and database, when that is set. None for a store in memory.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { pino } from 'pino';
import type { Store } from '../domain/store.port.ts';
import { type IndexFiles, indexFileAt } from '../search/memory/index-file.ts';
import { SqliteStore } from '../stores/sqlite/store.ts';
import type { StoreConfig } from '../stores/store.config.ts';
import { redactUri } from './store.ts';

/** The index file of the embedded store at `path`. */
export const embeddedIndexPath = (path: string) => `${path}.index`;

export function composeIndexFiles(
  store: Store,
  config: { store: StoreConfig; searchIndexDir?: string | undefined },
  logger: pino.Logger,
): IndexFiles | undefined {
  const where = placeOf(store, config);
  if (!where) return undefined;
  return indexFileAt(where.path, where.identity, {
    onLoad: ({ path, refused, ms }) => {
      if (refused === undefined) logger.info({ file: path, ms: Math.round(ms) }, 'search index read from its file');
      else logger.info({ file: path, why: refused }, 'search index file not used: the index is built');
    },
    onSave: (outcome) => {
      if (outcome.ok)
        logger.info(
          { file: outcome.path, bytes: outcome.bytes, ms: Math.round(outcome.ms) },
          'search index file written',
        );
      else
        logger.warn(
          { err: outcome.error },
          'search index file not written: the index serves, and the next start builds it again',
        );
    },
  });
}

function placeOf(
  store: Store,
  config: { store: StoreConfig; searchIndexDir?: string | undefined },
): { path: string; identity: () => Promise<string> } | undefined {
  if (config.store.kind === 'sqlite') {
    if (config.store.path === ':memory:' || !(store instanceof SqliteStore)) return undefined;
    return { path: embeddedIndexPath(config.store.path), identity: () => store.identity() };
  }
  if (config.searchIndexDir === undefined) return undefined;
  // The address and database, never a password or the options (redactUri).
  const identity = `mongodb:${redactUri(config.store.uri)}`;
  mkdirSync(config.searchIndexDir, { recursive: true });
  const name = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return { path: join(config.searchIndexDir, `mongodb-${name}.index`), identity: async () => identity };
}
