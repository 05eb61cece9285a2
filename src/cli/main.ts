// The operator command line. Returns the exit status instead of exiting, so that pending
// writes (and the store's close) finish first.
import { ConfigError } from '../config.ts';
import { StoreFileError } from '../composition/store.ts';
import { DomainError, StoreUnavailableError } from '../domain/shared/errors.ts';
import { UnknownFormatError } from '../import/errors.ts';
import { MappingError } from '../import/mapping.ts';
import { MongoSetupError } from '../mongodb-shared/setup-error.ts';
import { backupCommand } from './backup.command.ts';
import { importCommand } from './import.command.ts';
import { indexesCommand } from './indexes.command.ts';
import { restoreCommand } from './restore.command.ts';
import { CancelledError, EXIT, MAIN_HELP, UsageError } from './usage.ts';
import { userCommand } from './user.command.ts';

export async function run(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'import':
        return await importCommand(args);
      case 'user':
        return await userCommand(args);
      case 'indexes':
        return await indexesCommand(args);
      case 'backup':
        return await backupCommand(args);
      case 'restore':
        return await restoreCommand(args);
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(MAIN_HELP);
        return EXIT.ok;
      case undefined:
        process.stderr.write(MAIN_HELP);
        return EXIT.usage;
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    return report(error);
  }
}

function report(error: unknown): number {
  const say = (text: string) => process.stderr.write(`school-search: ${text}\n`);
  if (error instanceof UsageError || error instanceof UnknownFormatError || error instanceof MappingError) {
    say(`${error.message}\nRun "school-search --help" for usage.`);
    return EXIT.usage;
  }
  if (error instanceof ConfigError) {
    say(error.message);
    return EXIT.usage;
  }
  // Expected conditions, each said in its message with what to do: one line, no stack.
  if (error instanceof MongoSetupError || error instanceof StoreFileError) {
    say(error.message);
    return EXIT.failed;
  }
  if (error instanceof CancelledError) {
    say(error.message);
    return EXIT.cancelled;
  }
  if (error instanceof DomainError) {
    // The driver's own words (e.g. "database is locked") say what to do about an unavailable store.
    const cause =
      error instanceof StoreUnavailableError && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    say(`${error.message}${cause}`);
    return EXIT.failed;
  }
  say(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return EXIT.failed;
}
