// The seed import's own process (src/composition/seed.ts starts it on a first start): the store
// the configuration names (the same environment as the server's), the seed file imported into
// it, the counts (or why it failed) sent back over the IPC channel. Its heap, which holds every
// draft until the one transaction, dies with it, instead of growing the server's for the rest of
// its life.
import { loadConfig } from '../config.ts';
import type { ImportCounts } from '../domain/catalog/catalog.ports.ts';
import { importFile } from '../import/import.service.ts';
import { openStore } from './store.ts';

/** What the child sends its parent, once. */
export type SeedMessage = { readonly counts: ImportCounts } | { readonly error: string };

// The server stopped (or died): the import stops with it; an unfinished transaction is rolled back.
const orphaned = () => process.exit(1);
process.on('disconnect', orphaned);

const send = (message: SeedMessage) =>
  new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()));

try {
  const config = loadConfig();
  const store = await openStore(config.store, {
    warn: (message, details) => process.stderr.write(`${message} ${JSON.stringify(details ?? {})}\n`),
  });
  try {
    await send({ counts: (await importFile(store, config.seedFile, {})).counts });
  } finally {
    await store.close();
  }
} catch (error) {
  await send({ error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
}
// Done: the channel is let go so that the process ends.
process.off('disconnect', orphaned);
process.disconnect();
