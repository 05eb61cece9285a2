// Wires the domain services onto a store. Used by the composition root (server.ts here), the
// command line (src/cli/) and the tests, so all three run the same objects.
import { randomBytes } from 'node:crypto';
import { AccountNotices } from '../domain/accounts/account-notices.ts';
import { AccountService } from '../domain/metering/account.service.ts';
import { AuthService } from '../domain/accounts/auth.service.ts';
import { CatalogService } from '../domain/catalog/catalog.service.ts';
import { HealthService } from '../domain/health.service.ts';
import { DEFAULT_SESSION_MAX_SECONDS } from '../domain/accounts/credentials.ts';
import { KeyService, type PublishableLimits } from '../domain/accounts/keys.service.ts';
import { type LinkSecrets, linkSecrets } from '../domain/mail/link-token.ts';
import { LinkSender } from '../domain/accounts/link-sender.ts';
import { MailService, type MailEvents } from '../domain/mail/mail.service.ts';
import type { Clock } from '../domain/shared/clock.ts';
import type { Mailer } from '../domain/mail/mail.ports.ts';
import type { PasswordHasher } from '../domain/accounts/accounts.ports.ts';
import type { QuotaCounter } from '../domain/metering/metering.ports.ts';
import type { Store } from '../domain/store.port.ts';
import { PasswordResetService } from '../domain/accounts/reset.service.ts';
import type { AccountLinks } from '../domain/accounts/accounts.ports.ts';
import { SignUpService } from '../domain/accounts/signup.service.ts';
import type { SearchEngine } from '../domain/search/engine.port.ts';
import { NO_METRICS, type Metrics } from '../metrics/metrics.port.ts';
import { KEEP_EVERYTHING, type RetentionPolicy } from '../domain/metering/retention.ts';
import { SearchService } from '../domain/search/search.service.ts';
import type { UseCases } from '../domain/use-cases.ts';
import type { ManagedEngine } from '../search/managed.engine.ts';
import { MemorySearchEngine, type MemoryEngineOptions } from '../search/memory/memory.engine.ts';

export interface Services extends UseCases {
  readonly store: Store;
  readonly retention: RetentionPolicy;
  /** The store's rate-limit counters (undefined: each process counts alone). */
  readonly quotas: QuotaCounter | undefined;
  readonly engine: ManagedEngine;
  /** Where the app reports its work (createApp takes it from here). */
  readonly metrics: Metrics;
}

export const systemClock: Clock = { now: () => new Date() };

/** Sign-up off and no mail: what a server (or a test) that configures neither gets. */
export const NO_ACCOUNT_LINKS: AccountLinks = { signUp: 'off', mail: false, dashboardUrl: () => '/dashboard' };

const UNSENT: Mailer = {
  async send() {
    throw new Error('no mailer configured');
  },
};

export function createServices(deps: {
  store: Store;
  hasher: PasswordHasher;
  clock?: Clock;
  tokenTtlSeconds: number;
  /** The absolute session lifetime (default DEFAULT_SESSION_MAX_SECONDS, or tokenTtlSeconds when that is longer). */
  sessionMaxSeconds?: number;
  /** Default: every request record is kept. */
  retention?: RetentionPolicy;
  /** Default: the in-process index of the store's catalog. */
  engine?: ManagedEngine;
  /** For the default engine. */
  search?: MemoryEngineOptions;
  /** Default: none. */
  metrics?: Metrics;
  /** Where e-mail goes (default: nowhere, and `accountLinks.mail` false). */
  mailer?: Mailer;
  mailEvents?: MailEvents;
  /** Sign-up mode and the dashboard's address for links (default: sign-up off, no mail). */
  accountLinks?: AccountLinks;
  /** What links in e-mails are derived with (LINK_SECRET); default: a secret of this process alone. */
  linkSecrets?: LinkSecrets;
  /** E-mails one link may be sent in (0: no bound); default 5. */
  mailsPerLink?: number;
  /** What one publishable key may spend (default: KeyService's, 300 a minute and 100,000 a day). */
  publishableLimits?: PublishableLimits;
}): Services {
  const { store, hasher, clock = systemClock, metrics = NO_METRICS, retention = KEEP_EVERYTHING } = deps;
  const engine = deps.engine ?? new MemorySearchEngine(store.schools, deps.search);
  const settings = deps.accountLinks ?? NO_ACCOUNT_LINKS;
  const secrets = deps.linkSecrets ?? linkSecrets([randomBytes(32).toString('base64url')]);
  const mail = new MailService({
    outbox: store.outbox,
    mailer: deps.mailer ?? UNSENT,
    clock,
    secrets,
    ...(deps.mailEvents ? { events: deps.mailEvents } : {}),
  });
  // A server that sends no mail tells no one: nothing would ever take the notices.
  const notices = settings.mail ? new AccountNotices({ mail, dashboardUrl: settings.dashboardUrl }) : undefined;
  const auth = new AuthService({
    users: store.users,
    tokens: store.tokens,
    hasher,
    clock,
    settings: {
      tokenTtlSeconds: deps.tokenTtlSeconds,
      sessionMaxSeconds: deps.sessionMaxSeconds ?? Math.max(DEFAULT_SESSION_MAX_SECONDS, deps.tokenTtlSeconds),
    },
    ...(notices ? { notices } : {}),
  });
  const sender = new LinkSender({ links: store.links, mail, clock, secrets, mailsPerLink: deps.mailsPerLink ?? 5 });
  const links = { users: store.users, links: store.links, hasher, clock, sender, settings };
  return {
    signUp: new SignUpService({ ...links, auth }),
    passwordReset: new PasswordResetService({
      ...links,
      tokens: store.tokens,
      notices: notices ?? new AccountNotices({ mail, dashboardUrl: settings.dashboardUrl }),
    }),
    mail,
    store,
    engine,
    metrics,
    auth,
    keys: new KeyService({
      tokens: store.tokens,
      clock,
      passwords: auth,
      ...(notices ? { notices } : {}),
      ...(deps.publishableLimits ? { limits: deps.publishableLimits } : {}),
    }),
    search: new SearchService({
      engine: metrics === NO_METRICS ? engine : timed(engine, metrics),
      requests: store.requests,
      clock,
    }),
    catalog: new CatalogService({ schools: store.schools }),
    health: new HealthService({ store, engine }),
    retention,
    quotas: store.quotas,
    account: new AccountService({
      users: store.users,
      tokens: store.tokens,
      requests: store.requests,
      clock,
      retention,
    }),
  };
}

/** The engine as the search service sees it, each answer's time reported (the engine's alone: no HTTP, no metering). */
function timed(engine: SearchEngine, metrics: Metrics): SearchEngine {
  return {
    async search(query) {
      const started = performance.now();
      const page = await engine.search(query);
      metrics.searchAnswered((performance.now() - started) / 1000);
      return page;
    },
    ready: async () => engine.ready?.(),
    edition: () => engine.edition?.(),
  };
}
