// school-search indexes: creates the store's indexes now (MongoDB), including the Atlas Search
// index when MONGODB_SEARCH=atlas. The API also creates the ordinary ones at start-up.
import { loadConfig } from '../config.ts';
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
  // Loaded here: the MongoDB driver is no cost to the commands run on the embedded store.
  const { makeIndexes } = await import('../composition/indexes.ts');
  const made = await makeIndexes(config.store);
  const note =
    made.rewritten > 0 ? `Search fields rewritten: ${made.rewritten} schools (written by an earlier version).\n` : '';
  const lines = made.indexes.map((line) => `  ${line}\n`).join('');
  process.stdout.write(`${note}Indexes of ${storeLocation(config.store)}:\n${lines}`);
  return EXIT.ok;
}
