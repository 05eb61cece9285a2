// Starts the real app (createApp) on a fresh store, on port 0, with response validation on, and
// gives tests a generated client bound to it. The store is a temporary embedded one, or, when
// MONGODB_URI is set, a fresh database on that MongoDB (dropped on close): the API and security
// tests then run on the production store too. Tests about the embedded store itself ask for it.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createClient, type Client } from '../../generated/client/index.ts';
import { createApp } from '../../src/http/app.ts';
import type { Clock } from '../../src/domain/shared/clock.ts';
import type { Mailer } from '../../src/domain/mail/mail.ports.ts';
import type { PasswordHasher } from '../../src/domain/accounts/accounts.ports.ts';
import type { SchoolDraft } from '../../src/domain/catalog/catalog.ports.ts';
import { draftSchool, type SchoolInput } from '../../src/domain/catalog/school-draft.ts';
import { loadContract, type Contract } from '../../src/http/contract.ts';
import type { CorsOrigins } from '../../src/http/middleware/cors.ts';
import { RATE_LIMITS_OFF, type RateLimits } from '../../src/http/middleware/rate-limit.ts';
import type { Telemetry } from '../../src/metrics/metrics.port.ts';
import { listen } from '../../src/http/server.ts';
import { Argon2Hasher } from '../../src/security/argon2.hasher.ts';
import type { RetentionPolicy } from '../../src/domain/metering/retention.ts';
import type { MemoryEngineOptions } from '../../src/search/memory/memory.engine.ts';
import type { ManagedEngine } from '../../src/search/managed.engine.ts';
import { createServices, type Services } from '../../src/composition/services.ts';
import type { LinkSecrets } from '../../src/domain/mail/link-token.ts';
import type { Store } from '../../src/domain/store.port.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import type { SignUpMode } from '../../src/domain/accounts/accounts.ports.ts';
import { SmtpMailer } from '../../src/mail/smtp.mailer.ts';
import { dropAndClose, flavorOf, mongoUriFromEnv, openFreshMongoStore } from './mongodb.ts';

/** A clock tests can move: tokens expire without waiting. */
export class TestClock implements Clock {
  #offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }
  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }
}

// Far below the production parameters (OWASP: 19 MiB, t=2) so that tests stay fast; the
// hasher under test is the same class.
export const cheapHasher = new Argon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

/** The cheap hasher, counting verifications: shows whether a request reached the password check. */
export class CountingHasher implements PasswordHasher {
  verifications = 0;
  hash(password: string) {
    return cheapHasher.hash(password);
  }
  verify(hash: string, password: string) {
    this.verifications++;
    return cheapHasher.verify(hash, password);
  }
  needsRehash(hash: string) {
    return cheapHasher.needsRehash(hash);
  }
}

export interface TestApp {
  readonly baseUrl: string;
  readonly services: Services;
  readonly clock: TestClock;
  /** The SQLite file, or on MongoDB the database's name (e.g. to check it never leaks). */
  readonly dbPath: string;
  readonly server: Server;
  /** A generated client for this app, without credentials. */
  client(headers?: Record<string, string>): Client;
  /** Creates a user and returns a client that sends a fresh token of theirs. */
  userClient(
    email?: string,
    password?: string,
  ): Promise<{ client: Client; token: string; userId: string; email: string; password: string }>;
  seed(schools: SchoolInput[]): Promise<SchoolDraft[]>;
  close(): Promise<void>;
}

let users = 0;

export interface TestAppOptions {
  tokenTtlSeconds?: number;
  hasher?: PasswordHasher;
  /** Receives the app's log lines (JSON), e.g. to assert what is never logged. */
  logLines?: string[];
  /** Off unless a test is about rate limiting: tests log in more often than a person would. */
  rateLimits?: RateLimits;
  corsOrigins?: CorsOrigins;
  trustProxy?: boolean | number | string;
  /** Put the store file here (the caller owns and removes the directory), e.g. to move or fill it. */
  dataDir?: string;
  /** How long a write waits for a held lock (production: 5 s). */
  busyBudgetMs?: number;
  /** On unless a test needs the app as production runs it. */
  validateResponses?: boolean;
  /**
   * `sqlite` for tests about the embedded store itself; by default MongoDB when MONGODB_URI is
   * set (dataDir and busyBudgetMs imply sqlite).
   */
  store?: 'default' | 'sqlite';
  /** On this MongoDB server (a fresh database), whatever MONGODB_URI says: e.g. one a test stops. */
  mongoUri?: string;
  /** Options of the search engine (default: refreshed only by seed()). */
  search?: MemoryEngineOptions;
  /** Another engine than the in-process index (a MongoDB engine, a stand-in), on the app's store. */
  engine?: ManagedEngine | ((store: Store) => ManagedEngine);
  /** Report to these metrics (default: none); with `metricsToken`, also GET /metrics on the app for that bearer token. */
  telemetry?: Telemetry;
  metricsToken?: string;
  /** Which request records are kept (default: all). */
  retention?: RetentionPolicy;
  /** The contract the app serves and validates against (default: openapi/openapi.yaml). */
  contract?: Contract;
  /** Sign-up mode (default: off); with `smtpUrl`, mail goes there and links point at this app's dashboard. */
  signUp?: SignUpMode;
  /** The SMTP server mail goes to (default: none, and no mail: sign-up and reset off). */
  smtpUrl?: string;
  /** Another mailer than SMTP (e.g. one that records), when `smtpUrl` is not given. */
  mailer?: Mailer;
  /** E-mails one link may be sent in (default 5, as in production; 0: no bound). */
  mailsPerLink?: number;
  /** The absolute session lifetime (default: 12 hours). */
  sessionMaxSeconds?: number;
  /** What links are derived with (default: a secret of this app). */
  linkSecrets?: LinkSecrets;
}

async function openTestStore(
  options: TestAppOptions,
): Promise<{ store: Store; dbPath: string; dispose(): Promise<void> }> {
  const uri = options.mongoUri ?? mongoUriFromEnv();
  const sqliteOnly = options.store === 'sqlite' || options.dataDir !== undefined || options.busyBudgetMs !== undefined;
  if (uri && !sqliteOnly) {
    const store = await openFreshMongoStore(uri, await flavorOf(uri));
    return { store, dbPath: store.db.databaseName, dispose: () => dropAndClose(store) };
  }
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'school-search-test-'));
  const dbPath = join(dir, 'store.db');
  const store = await SqliteStore.open({
    path: dbPath,
    ...(options.busyBudgetMs === undefined ? {} : { busyBudgetMs: options.busyBudgetMs }),
  });
  return {
    store,
    dbPath,
    async dispose() {
      await store.close();
      if (options.dataDir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { store, dbPath, dispose } = await openTestStore(options);
  const clock = new TestClock();
  let baseUrl = '';
  const smtp = options.smtpUrl
    ? new SmtpMailer(options.smtpUrl, 'School Search API <no-reply@school-search.test>')
    : undefined;
  const mailer: Mailer | undefined = smtp ?? options.mailer;
  // The index is refreshed when a test seeds (seed() below), not on a timer: no test waits for it.
  const services = createServices({
    store,
    hasher: options.hasher ?? cheapHasher,
    clock,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    ...(options.sessionMaxSeconds ? { sessionMaxSeconds: options.sessionMaxSeconds } : {}),
    ...(options.mailsPerLink === undefined ? {} : { mailsPerLink: options.mailsPerLink }),
    ...(options.linkSecrets ? { linkSecrets: options.linkSecrets } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
    search: { refreshMs: 0, ...options.search },
    ...(mailer ? { mailer } : {}),
    accountLinks: {
      signUp: options.signUp ?? 'off',
      mail: mailer !== undefined,
      dashboardUrl: () => `${baseUrl}/dashboard`,
    },
    ...(options.telemetry ? { metrics: options.telemetry.metrics } : {}),
    ...(options.engine
      ? { engine: typeof options.engine === 'function' ? options.engine(store) : options.engine }
      : {}),
  });
  await services.engine.start();
  const lines = options.logLines;
  const logger = lines
    ? pino({ level: 'info' }, { write: (line: string) => void lines.push(line) })
    : pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const app = createApp({
    ...services,
    contract: options.contract ?? loadContract(),
    publicBaseUrl: 'http://images.test',
    validateResponses: options.validateResponses ?? true,
    logger,
    rateLimits: options.rateLimits ?? RATE_LIMITS_OFF,
    corsOrigins: options.corsOrigins ?? '*',
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    ...(options.telemetry && options.metricsToken
      ? { metricsEndpoint: { token: options.metricsToken, scrape: options.telemetry.scrape } }
      : {}),
  });
  const server = await listen(app, 0, '127.0.0.1', logger);
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const client = (headers: Record<string, string> = {}) => createClient({ baseUrl, headers });

  return {
    baseUrl,
    server,
    services,
    clock,
    dbPath,
    client,
    async userClient(email, password = 'correct-horse-battery') {
      const address = email ?? `user${++users}-${process.pid}@example.com`;
      const { userId } = await services.auth.createUser(address, password);
      const issued = await services.auth.login(address, password);
      return {
        client: client({ Authorization: `Bearer ${issued.value}` }),
        token: issued.value,
        userId,
        email: address,
        password,
      };
    },
    async seed(inputs) {
      const drafts = inputs.map((input) => {
        const result = draftSchool(input);
        if (!result.ok) throw new Error(result.reason);
        return result.draft;
      });
      await store.schools.upsertMany(drafts);
      await services.engine.refresh();
      return drafts;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      services.engine.close();
      smtp?.close();
      await dispose();
    },
  };
}
