// Builds an index in a worker thread, so that the event loop of the API keeps serving while a
// large catalog is indexed (a few seconds for 150,000 schools). Receives the catalog packed
// (packed-catalog.ts), its arrays transferred, and answers with the index's typed arrays,
// transferred too (not copied).
import { parentPort } from 'node:worker_threads';
import { buffersOf, buildPackedIndex } from './build.ts';
import type { PackedCatalog } from './packed-catalog.ts';

export type BuildMessage = PackedCatalog;

parentPort!.once('message', (packed: BuildMessage) => {
  const data = buildPackedIndex(packed);
  parentPort!.postMessage(data, buffersOf(data));
});
