// Builds an index in a worker thread, so that the event loop of the API keeps serving while a
// large catalog is indexed (a few seconds for 150,000 schools). Receives the catalog in
// batches and packs each as it comes (packed-catalog.ts: no object per school is kept), answers
// with the index's typed arrays, transferred (not copied).
import { parentPort } from 'node:worker_threads';
import type { CatalogSchool } from '../../domain/search/engine.ts';
import { buffersOf, buildPackedIndex } from './build.ts';
import { CatalogPacker } from './packed-catalog.ts';

export type BuildMessage =
  | { readonly kind: 'rows'; readonly rows: readonly CatalogSchool[] }
  | { readonly kind: 'build' };

const packer = new CatalogPacker();
parentPort!.on('message', (message: BuildMessage) => {
  if (message.kind === 'rows') {
    packer.add(message.rows);
    return;
  }
  const data = buildPackedIndex(packer.done());
  parentPort!.postMessage(data, buffersOf(data));
});
