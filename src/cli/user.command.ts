// school-search user create --email <address>   (password on standard input)
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { Argon2Hasher } from '../security/argon2.hasher.ts';
import { createServices } from '../composition/services.ts';
import { openStore } from '../composition/store.ts';
import { parseOrUsage } from './args.ts';
import { readPassword } from './password.ts';
import { EXIT, UsageError, USER_HELP } from './usage.ts';

export async function userCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined || action === '--help' || action === '-h' || action === 'help') {
    if (action === undefined) {
      process.stderr.write(USER_HELP);
      return EXIT.usage;
    }
    process.stdout.write(USER_HELP);
    return EXIT.ok;
  }
  if (action !== 'create') throw new UsageError(`Unknown user command "${action}"; the user command is "user create".`);
  const { values } = parseOrUsage(() =>
    parseArgs({ args: rest, options: { email: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }),
  );
  if (values.help) {
    process.stdout.write(USER_HELP);
    return EXIT.ok;
  }
  if (!values.email) throw new UsageError('user create needs --email <address>.');
  const config = loadConfig();
  // Asked for before the store is opened, so a slow typist holds no connection.
  const password = await readPassword(process.stdin, process.stderr);
  const store = await openStore(config.store);
  try {
    const { auth } = createServices({
      store,
      hasher: new Argon2Hasher(config.argon2),
      tokenTtlSeconds: config.tokenTtlSeconds,
    });
    const user = await auth.createUser(values.email, password);
    process.stderr.write(`Created the account ${user.email}.\n`);
    process.stdout.write(`${user.userId}\n`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
