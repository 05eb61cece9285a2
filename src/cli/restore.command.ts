// school-search restore <file>: puts a backup in the embedded store's place, with no process on it.
import { loadConfig } from '../config.ts';
import { restoreEmbeddedStore } from '../composition/store-files.ts';
import { EXIT, RESTORE_HELP, UsageError } from './usage.ts';

export async function restoreCommand(args: string[]): Promise<number> {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    process.stdout.write(RESTORE_HELP);
    return EXIT.ok;
  }
  if (args.length !== 1 || args[0]!.startsWith('-')) throw new UsageError('restore takes exactly one file.');
  const config = loadConfig();
  if (config.store.kind !== 'sqlite')
    throw new UsageError('restore is for the embedded store; restore MongoDB with mongorestore or Atlas backups.');
  const done = await restoreEmbeddedStore(config.store, args[0]!);
  const kept = done.replaced
    ? ` The store it replaced is kept at ${done.replaced}${done.keptBeside.length > 0 ? `, with ${done.keptBeside.join(' and ')} as found beside it` : ''}.`
    : done.keptBeside.length > 0
      ? ` What was left of the lost store is kept at ${done.keptBeside.join(' and ')}.`
      : '';
  process.stdout.write(
    `Restored ${config.store.path} from ${done.source}: ${done.schools} schools, ${done.users} users, ` +
      `${done.records} request records.${kept}\n`,
  );
  return EXIT.ok;
}
