// The mailer the configuration names, for the API (src/main.ts) and the command line (user invite).
import type { Config } from '../config.ts';
import type { Mailer, MailMessage } from '../domain/ports.ts';
import type { AccountLinks } from '../domain/signup.service.ts';
import { LogMailer, NO_MAIL } from './log.mailer.ts';
import { SmtpMailer } from './smtp.mailer.ts';

/** SMTP_URL's server; without it, `show` in development (the log, or the terminal) and nothing in production. */
export function mailerOf(config: Config, show: (message: MailMessage) => void): Mailer {
  if (config.mail.kind === 'smtp') return new SmtpMailer(config.mail.url, config.mail.from);
  if (config.mail.kind === 'none') return NO_MAIL;
  return new LogMailer(show);
}

export function accountLinksOf(config: Config): AccountLinks {
  return {
    signUp: config.signUp,
    mail: config.mail.kind !== 'none',
    dashboardUrl: () => `${config.publicBaseUrl}/dashboard`,
  };
}
