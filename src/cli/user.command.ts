// school-search user create --email <address>   (password on standard input)
// school-search user invite --email <address>   (mails an invitation link; SIGNUP=invite or open)
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { Argon2Hasher } from '../security/argon2.hasher.ts';
import { createServices } from '../composition/services.ts';
import { accountSettingsOf, closeMailer, mailerOf } from '../composition/mailer.ts';
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
  if (action !== 'create' && action !== 'invite') {
    throw new UsageError(`Unknown user command "${action}"; the user commands are "user create" and "user invite".`);
  }
  const { values } = parseOrUsage(() =>
    parseArgs({ args: rest, options: { email: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }),
  );
  if (values.help) {
    process.stdout.write(USER_HELP);
    return EXIT.ok;
  }
  if (!values.email) throw new UsageError(`user ${action} needs --email <address>.`);
  const config = loadConfig();
  if (action === 'invite') return invite(config, values.email);
  // Asked for before the store is opened, so a slow typist holds no connection.
  const password = await readPassword(process.stdin, process.stderr);
  const store = await openStore(config.store);
  try {
    const { auth } = createServices({
      ...accountSettingsOf(config),
      store,
      hasher: new Argon2Hasher(config.argon2),
    });
    const user = await auth.createUser(values.email, password);
    process.stderr.write(`Created the account ${user.email}.\n`);
    process.stdout.write(`${user.userId}\n`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** Mails the address an invitation link (without SMTP_URL in development: the e-mail is printed here). */
async function invite(config: ReturnType<typeof loadConfig>, email: string): Promise<number> {
  const store = await openStore(config.store);
  const mailer = await mailerOf(config, (message) =>
    process.stderr.write(
      `No SMTP_URL: the e-mail is shown here instead of sent.\nTo: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`,
    ),
  );
  try {
    const { signUp } = createServices({
      ...accountSettingsOf(config),
      store,
      hasher: new Argon2Hasher(config.argon2),
      mailer,
    });
    const sent = await signUp.invite(email);
    process.stderr.write(`Invited ${sent.email}: the link works once, until ${sent.expiresAt.toISOString()}.\n`);
    return EXIT.ok;
  } finally {
    closeMailer(mailer);
    await store.close();
  }
}
