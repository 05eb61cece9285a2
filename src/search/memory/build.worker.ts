// Builds an index in a worker thread, so that the event loop of the API keeps serving while a
// large catalog is indexed (seconds for 150,000 schools, a minute for a million). Receives the
// catalog a packed batch at a time as the store yields it (packed-catalog.ts, its arrays
// transferred, not copied), takes each as it comes (build.ts), and at the end answers with the
// index's typed arrays, transferred too.
import { parentPort } from 'node:worker_threads';
import { buffersOf, IndexBuilder } from './build.ts';
import type { PackedCatalog } from './packed-catalog.ts';

export type BuildMessage = { readonly batch: PackedCatalog } | { readonly end: true };

const builder = new IndexBuilder();
parentPort!.on('message', (message: BuildMessage) => {
  if ('batch' in message) {
    builder.add(message.batch);
    return;
  }
  const data = builder.finish();
  parentPort!.postMessage(data, buffersOf(data));
});
