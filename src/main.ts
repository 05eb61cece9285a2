// The composition root: reads the configuration, opens the store, seeds it when empty, builds
// the app and listens. Nothing else in the code base binds a port (configuration: src/config.ts).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { pino } from 'pino';
import type { Express } from 'express';
import { enableWorkerCompileCache } from './compile-cache.ts';
import { createApp, type AppOptions } from './http/app.ts';
import { ConfigError, DEMO_EMAIL, DEMO_PASSWORD, loadConfig, type Config } from './config.ts';
import { EmailTakenError, StoreUnavailableError } from './domain/errors.ts';
import { loadContract } from './http/contract.ts';
import { dashboardAssets } from './http/routes/dashboard.assets.ts';
import { metricsListener } from './http/routes/metrics.routes.ts';
import { drainConnections, listen } from './http/server.ts';
import { KEEP_EVERYTHING, keepDays, purgeExpired } from './domain/retention.ts';
import { importFile } from './import/import.service.ts';
import { serverOutput, startupBanner } from './logger.ts';
import { NO_METRICS, type Metrics, type Telemetry } from './metrics/metrics.port.ts';
import { prometheusTelemetry } from './metrics/prometheus.metrics.ts';
import { Argon2Hasher } from './security/argon2.hasher.ts';
import { lowerThreadPoolPriority } from './security/thread-priority.ts';
import { createServices, unmanaged, type Services } from './services.ts';
import { openStore, pipelineEngine, storeLocation } from './stores/open.ts';
import type { Mailer } from './domain/ports.ts';
import type { MailEvents } from './domain/mail.service.ts';
import { accountLinksOf, mailerOf } from './mail/mailer.config.ts';

async function main(): Promise<void> {
  enableWorkerCompileCache();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const { logger, print } = serverOutput(config);
  const telemetry = composeTelemetry(config);
  const services = await composeServices(config, logger, telemetry?.metrics);
  const demoUser = await prepareStore(services, config, logger);
  await startServices(services);
  // The metrics listener first: a port that is taken stops start-up before the API takes requests.
  const metricsServer =
    telemetry && config.metrics.port !== undefined
      ? await listen(metricsListener(telemetry.scrape, logger), config.metrics.port, config.metrics.host, logger)
      : undefined;
  const server = await listen(composeApp(services, config, logger, {}, telemetry), config.port, config.host, logger);
  const url = `http://${config.host}:${(server.address() as AddressInfo).port}`;
  const metrics = metricsServer
    ? `http://${config.metrics.host}:${(metricsServer.address() as AddressInfo).port}/metrics`
    : config.metrics.token
      ? `${config.publicBaseUrl}/metrics`
      : undefined;
  logger.info(
    {
      url,
      docs: `${config.publicBaseUrl}/docs`,
      dashboard: `${config.publicBaseUrl}/dashboard`,
      openapi: `${config.publicBaseUrl}/openapi.json`,
      ...(metrics ? { metrics } : {}),
      store: services.store.kind,
      database: storeLocation(config.store),
    },
    'listening',
  );
  print(
    startupBanner({
      listening: url,
      publicBaseUrl: config.publicBaseUrl,
      store: `${services.store.kind === 'sqlite' ? 'embedded store' : 'MongoDB'} ${storeLocation(config.store)}`,
      metrics: metricsServer ? metrics : metrics && `${metrics} (Authorization: Bearer $METRICS_TOKEN)`,
      demoUser,
    }),
  );
  purgeOldRecords(services, logger);
  retryMail(services, logger);
  handleShutdown([server, ...(metricsServer ? [metricsServer] : [])], services, config, logger);
}

/** Prometheus metrics when a way to read them is configured (METRICS_PORT or METRICS_TOKEN); otherwise none are collected. */
function composeTelemetry(config: Config): Telemetry | undefined {
  if (config.metrics.port === undefined && config.metrics.token === undefined) return undefined;
  return prometheusTelemetry({ engine: config.store.kind === 'mongodb' ? config.store.search.kind : 'memory' });
}

// The three steps below are exported for the benchmark's server (scripts/bench/server.ts), which
// must run exactly what operators run; nothing else imports this file.

/** The store the configuration names, the services over it and the engine that answers searches. */
export async function composeServices(
  config: Config,
  logger: pino.Logger,
  metrics: Metrics = NO_METRICS,
): Promise<Services> {
  const store = await openStore(config.store, { warn: (message, details) => logger.warn(details, message) });
  const pipeline = pipelineEngine(store, config.store);
  return createServices({
    store,
    mailer: composeMailer(config, logger),
    mailEvents: mailEvents(logger),
    accountLinks: accountLinksOf(config),
    hasher: new Argon2Hasher(config.argon2, config.argon2Concurrency),
    tokenTtlSeconds: config.tokenTtlSeconds,
    retention: config.requestRetentionDays > 0 ? keepDays(config.requestRetentionDays) : KEEP_EVERYTHING,
    ...(pipeline ? { engine: unmanaged(pipeline) } : {}),
    metrics,
    search: {
      refreshMs: config.searchRefreshMs,
      onRefresh: (event) => {
        if (event.ok) logger.info({ schools: event.schools, ms: Math.round(event.ms) }, 'search index built');
        else {
          metrics.storeFailed(
            'searchIndexRefresh',
            event.error instanceof StoreUnavailableError ? 'unavailable' : 'error',
          );
          logger.warn({ err: event.error }, 'search index not refreshed: the previous one keeps serving');
        }
      },
    },
  });
}

/** Before the first request: the search index built, the password hasher's thread pool warm, the dashboard bundled. */
export async function startServices(services: Services): Promise<{ indexMs: number }> {
  const started = performance.now();
  await services.engine.start();
  const indexMs = performance.now() - started;
  await services.auth.warmUp();
  // The dashboard's bundle: a broken one stops start-up here rather than failing its first visitor.
  await dashboardAssets();
  // After the first hash (warmUp) the thread pool exists: its threads now yield to the event loop.
  lowerThreadPoolPriority();
  return { indexMs };
}

/**
 * The HTTP app over the services, with the configuration's HTTP settings (`overrides`: the
 * bench's); /metrics on it only for METRICS_TOKEN.
 */
export function composeApp(
  services: Services,
  config: Config,
  logger: pino.Logger,
  overrides: Partial<Pick<AppOptions, 'validateResponses' | 'rateLimits'>> = {},
  telemetry?: Telemetry,
): Express {
  return createApp({
    ...services,
    contract: loadContract(),
    publicBaseUrl: config.publicBaseUrl,
    validateResponses: config.validateResponses,
    logger,
    rateLimits: config.rateLimits,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    ...(telemetry && config.metrics.token
      ? { metricsEndpoint: { token: config.metrics.token, scrape: telemetry.scrape } }
      : {}),
    ...overrides,
  });
}

/** SMTP_URL's server; without it, the log in development (`npm start` shows every e-mail) and nothing in production. */
export function composeMailer(config: Config, logger: pino.Logger): Mailer {
  return mailerOf(config, (message) =>
    logger.info(
      { mail: { to: message.to, subject: message.subject, links: message.text.match(/https?:\/\/\S+/g) ?? [] } },
      `e-mail not sent (no SMTP_URL: the development outbox is this log):\n${message.text}`,
    ),
  );
}

/** What the outbox reports: a failure is a warning (it is retried), a message dropped undelivered an error. */
function mailEvents(logger: pino.Logger): MailEvents {
  return {
    failed: (entry, error) =>
      logger.warn(
        { err: error, mail: { id: entry.id, attempts: entry.attempts, next: entry.nextAttemptAt.toISOString() } },
        'e-mail not delivered: kept in the outbox and retried',
      ),
    retried: (entry) => logger.info({ mail: { id: entry.id, attempts: entry.attempts } }, 'e-mail delivered on retry'),
    discarded: (entry) =>
      logger.error(
        { mail: { id: entry.id, attempts: entry.attempts, lastError: entry.lastError } },
        'e-mail dropped undelivered: its link expired before the mail server took it',
      ),
  };
}

/** How often each instance tries the outbox's due mail (entries are claimed, so instances do not send one twice). */
const MAIL_RETRY_MS = 15_000;

function retryMail(services: Services, logger: pino.Logger): void {
  setInterval(
    () =>
      void services.mail
        .retryDue()
        .catch((error: unknown) => logger.warn({ err: error }, 'outbox not read: the next round tries again')),
    MAIL_RETRY_MS,
  ).unref();
}

/** How often every instance deletes the request records the retention policy no longer keeps. */
const RETENTION_PURGE_MS = 3_600_000;

/** The retention policy's purge: now, then hourly, from every instance (idempotent; MongoDB lets one at a time do it). Nothing when every record is kept. */
function purgeOldRecords(services: Services, logger: pino.Logger): void {
  if (services.retention.keptFrom(new Date()) === undefined) return;
  const purge = () =>
    purgeExpired(services.store.requests, services.retention, new Date()).then(
      (deleted) => void (deleted > 0 && logger.info({ deleted }, 'request records past their retention deleted')),
      (error: unknown) =>
        logger.warn({ err: error }, 'request records past their retention not deleted: the next hour tries again'),
    );
  void purge();
  setInterval(() => void purge(), RETENTION_PURGE_MS).unref();
}

/** Seeds an empty catalog; returns the demo user's credentials when it is enabled. */
async function prepareStore(
  services: Services,
  config: Config,
  logger: pino.Logger,
): Promise<{ email: string; password: string } | undefined> {
  if (config.seedWhenEmpty && (await services.store.schools.count()) === 0) {
    logger.info({ file: config.seedFile }, 'school catalog is empty: loading the seed');
    const report = await importFile(services.store, config.seedFile, {});
    logger.info({ ...report.counts }, 'seed loaded');
  }
  if (config.demoUser) {
    if (!['127.0.0.1', 'localhost', '::1'].includes(config.host)) {
      logger.warn(
        { host: config.host, email: DEMO_EMAIL },
        'the demo user, whose password is public, is enabled on a non-loopback address: set NODE_ENV=production or DEMO_USER=false',
      );
    }
    try {
      await services.auth.createUser(DEMO_EMAIL, DEMO_PASSWORD);
      logger.info({ email: DEMO_EMAIL }, 'demo user created');
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
    }
    return { email: DEMO_EMAIL, password: DEMO_PASSWORD };
  }
  return undefined;
}

/**
 * SIGTERM/SIGINT: stop accepting (the API's listener and the metrics listener), let in-flight
 * requests finish, close the store, exit 0.
 */
function handleShutdown(servers: readonly Server[], services: Services, config: Config, logger: pino.Logger): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing connections');
      for (const server of servers) server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    timer.unref();
    const closed = servers.map((server) => {
      const stopDraining = drainConnections(server);
      const done = new Promise<void>((resolve) =>
        server.close(() => {
          stopDraining();
          resolve();
        }),
      );
      server.closeIdleConnections();
      return done;
    });
    void Promise.all(closed).then(() => {
      services.engine.close();
      void services.store.close().then(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    // Logged only now that the listeners are closed: whoever reads this line (an orchestrator, a
    // test) can rely on new connections being refused from here on.
    logger.info({ signal }, 'shutting down');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    // Start-up failures (store cannot be opened, seed file missing, port taken) in one line, not a stack.
    // A store that cannot be reached says why in its cause (refused, unknown host, bad credentials).
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    process.stderr.write(
      `school-search: cannot start: ${error instanceof Error ? error.message : String(error)}${cause}\n`,
    );
    process.exit(1);
  }
}
