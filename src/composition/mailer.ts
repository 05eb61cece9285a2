// The mailer the configuration names, for the API server (server.ts) and the command line (user
// invite), and what the outbox's failures are logged as.
import type { pino } from 'pino';
import type { Config } from '../config.ts';
import type { MailEvents } from '../domain/mail/mail.service.ts';
import type { Mailer, OutgoingMail } from '../domain/mail/mail.ports.ts';
import type { AccountLinks } from '../domain/accounts/accounts.ports.ts';
import { linkSecrets } from '../domain/mail/link-token.ts';
import { LogMailer, NO_MAIL } from '../mail/log.mailer.ts';

/**
 * SMTP_URL's server; without it, `show` in development (the log, or the terminal) and nothing in
 * production. nodemailer is loaded only for SMTP: it is 3.7 MiB of heap and 1.8 MiB of buffers
 * in a server that sends no mail (docs/runs/performance.md, Run L).
 */
export async function mailerOf(config: Config, show: (message: OutgoingMail) => void): Promise<Mailer> {
  if (config.mail.kind === 'smtp') {
    const { SmtpMailer } = await import('../mail/smtp.mailer.ts');
    return new SmtpMailer(config.mail.url, config.mail.from);
  }
  if (config.mail.kind === 'none') return NO_MAIL;
  return new LogMailer(show);
}

/** Closes what a mailer of mailerOf holds open (the SMTP pool), so that a command can exit. */
export function closeMailer(mailer: Mailer): void {
  mailer.close?.();
}

export function accountLinksOf(config: Config): AccountLinks {
  return {
    signUp: config.signUp,
    mail: config.mail.kind !== 'none',
    dashboardUrl: () => `${config.publicBaseUrl}/dashboard`,
  };
}

/** What createServices takes from the configuration about accounts, sessions and their mail (the API and the command line alike). */
export function accountSettingsOf(config: Config) {
  return {
    accountLinks: accountLinksOf(config),
    tokenTtlSeconds: config.tokenTtlSeconds,
    sessionMaxSeconds: config.sessionMaxSeconds,
    mailsPerLink: config.mailsPerLink,
    ...(config.linkSecrets ? { linkSecrets: linkSecrets(config.linkSecrets) } : {}),
  };
}

/** The API's mailer: SMTP_URL's server; without it, the log in development (`npm start` shows every e-mail) and nothing in production. */
export function composeMailer(config: Config, logger: pino.Logger): Promise<Mailer> {
  return mailerOf(config, (message) =>
    logger.info(
      { mail: { to: message.to, subject: message.subject, links: message.text.match(/https?:\/\/\S+/g) ?? [] } },
      `e-mail not sent (no SMTP_URL: the development outbox is this log):\n${message.text}`,
    ),
  );
}

/** What the outbox reports: a failure is a warning (it is retried), a message dropped undelivered an error. */
export function mailEvents(logger: pino.Logger): MailEvents {
  return {
    failed: (entry, error) =>
      logger.warn(
        { err: error, mail: { id: entry.id, attempts: entry.attempts, next: entry.nextAttemptAt.toISOString() } },
        'e-mail not delivered: kept in the outbox and retried',
      ),
    retried: (entry) => logger.info({ mail: { id: entry.id, attempts: entry.attempts } }, 'e-mail delivered on retry'),
    discarded: (entry, why) =>
      logger.error(
        { mail: { id: entry.id, attempts: entry.attempts, lastError: entry.lastError } },
        why === 'expired'
          ? 'e-mail dropped undelivered: its link expired before the mail server took it'
          : 'e-mail dropped undelivered: its link was made with a LINK_SECRET this server does not have (keep the old one after the new, comma-separated, until such mail is sent)',
      ),
    lost: (message, error) =>
      logger.error({ err: error, mail: { subject: message.subject } }, 'notice e-mail lost: the store did not take it'),
  };
}
