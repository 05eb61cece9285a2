// Builds an index in a worker thread, so that the event loop of the API keeps serving while a
// large catalog is indexed (about a second for 130,000 schools). Receives the catalog in
// batches, answers with the index's typed arrays, transferred (not copied).
import { parentPort } from 'node:worker_threads';
import type { CatalogSchool } from '../../domain/search/engine.ts';
import { buffersOf, buildIndex } from './build.ts';

export type BuildMessage =
  | { readonly kind: 'rows'; readonly rows: readonly CatalogSchool[] }
  | { readonly kind: 'build' };

const rows: CatalogSchool[] = [];
parentPort!.on('message', (message: BuildMessage) => {
  if (message.kind === 'rows') {
    for (const row of message.rows) rows.push(row);
    return;
  }
  const data = buildIndex(rows);
  parentPort!.postMessage(data, buffersOf(data));
});
