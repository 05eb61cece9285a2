// school-search backup <file>: a copy of the embedded store, made while servers run on it.
import { loadConfig } from '../config.ts';
import { backupEmbeddedStore } from '../composition/store-files.ts';
import { BACKUP_HELP, EXIT, UsageError } from './usage.ts';

export async function backupCommand(args: string[]): Promise<number> {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    process.stdout.write(BACKUP_HELP);
    return EXIT.ok;
  }
  if (args.length !== 1 || args[0]!.startsWith('-')) throw new UsageError('backup takes exactly one file.');
  const config = loadConfig();
  if (config.store.kind !== 'sqlite')
    throw new UsageError('backup is for the embedded store; back up MongoDB with mongodump or Atlas backups.');
  const started = performance.now();
  const made = await backupEmbeddedStore(config.store, args[0]!);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  process.stdout.write(
    `Backed up ${config.store.path} to ${made.target}: ${made.schools} schools, ${made.users} users, ` +
      `${made.records} request records (${(made.bytes / 1_048_576).toFixed(1)} MiB) in ${seconds} s.\n`,
  );
  return EXIT.ok;
}
