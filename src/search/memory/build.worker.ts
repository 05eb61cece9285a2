// Builds an index in a worker thread, so that the event loop of the API keeps serving while a
// large catalog is indexed (seconds for 150,000 schools, a minute for a million). Receives the
// catalog a packed batch at a time as the store yields it (packed-catalog.ts, its arrays
// transferred, not copied), takes each as it comes (build.ts), and at the end answers with the
// index's typed arrays, transferred too. Asked to save the index (index-file.ts), it writes the
// file here, off the API's event loop: the arrays go to the temporary file first (their checksum
// and a write into the page cache, tens of milliseconds for the seed), then to the API, and the
// fsync and the rename follow while the API already serves from them.
import { parentPort } from 'node:worker_threads';
import { buffersOf, IndexBuilder, type IndexData } from './build.ts';
import { type IndexFileTarget, type SaveOutcome, writeIndexFile } from './index-file.ts';
import type { PackedCatalog } from './packed-catalog.ts';

export type BuildMessage = { readonly batch: PackedCatalog } | { readonly end: true; readonly save?: IndexFileTarget };

export type BuildReply = { readonly index: IndexData } | { readonly saved: SaveOutcome };

const builder = new IndexBuilder();
const reply = (message: BuildReply, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

parentPort!.on('message', (message: BuildMessage) => {
  if ('batch' in message) {
    builder.add(message.batch);
    return;
  }
  const index = builder.finish();
  const handOver = () => reply({ index }, buffersOf(index));
  if (!message.save) {
    handOver();
    return;
  }
  const started = performance.now();
  writeIndexFile(message.save, index, handOver).then(
    ({ bytes }) => reply({ saved: { ok: true, path: message.save!.path, bytes, ms: performance.now() - started } }),
    (error: unknown) => reply({ saved: { ok: false, error } }),
  );
});
