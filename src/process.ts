// The process, as src/main.ts starts it: reads the configuration, composes the server
// (src/composition/server.ts, whose steps the benchmark runs too), listens, seeds an empty catalog, readies the search index, purges
// old records hourly, retries the mail outbox, and stops on SIGTERM/SIGINT. Nothing else in the
// code base binds a port (configuration: src/config.ts).
//
// The port accepts connections before the index is ready (read from its file or built: seconds
// for a large catalog): meanwhile /health/ready answers 503 with the reason and searches 503 with
// Retry-After, rather than a load balancer or a newcomer meeting a refused connection. The
// "listening" line is logged once the index is ready, as before: whoever waits for it can search.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { pino } from 'pino';
import { composeApp, composeServices, composeTelemetry, startServices } from './composition/server.ts';
import { importSeed } from './composition/seed.ts';
import { storeLocation } from './composition/store.ts';
import { ConfigError, DEMO_EMAIL, DEMO_PASSWORD, loadConfig, type Config } from './config.ts';
import { EmailTakenError } from './domain/shared/errors.ts';
import { purgeExpired } from './domain/metering/retention.ts';
import { metricsListener } from './http/routes/metrics.routes.ts';
import { drainConnections, listen } from './http/server.ts';
import { serverOutput, startupBanner } from './logger.ts';
import type { Services } from './composition/services.ts';

async function main(): Promise<void> {
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
  const { logger, print } = await serverOutput(config);
  const telemetry = await composeTelemetry(config);
  const services = await composeServices(config, logger, telemetry?.metrics);
  // The metrics listener first: a port that is taken stops start-up before the API takes requests.
  const metricsServer =
    telemetry && config.metrics.port !== undefined
      ? await listen(metricsListener(telemetry.scrape, logger), config.metrics.port, config.metrics.host, logger)
      : undefined;
  const server = await listen(composeApp(services, config, logger, {}, telemetry), config.port, config.host, logger);
  const url = `http://${config.host}:${(server.address() as AddressInfo).port}`;
  logger.info({ url }, 'accepting connections: ready once the search index is');
  const shutdown = handleShutdown([server, ...(metricsServer ? [metricsServer] : [])], services, config, logger);
  let demoUser: Awaited<ReturnType<typeof prepareStore>>;
  try {
    // After the seed: the index's first build sees the seeded catalog.
    demoUser = await prepareStore(services, config, logger);
    if (shutdown.stopping) return;
    await startServices(services);
  } catch (error) {
    // Stopped meanwhile: the store was closed under the seed or the build; the shutdown exits 0.
    if (shutdown.stopping) return;
    throw error;
  }
  if (shutdown.stopping) return;
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
    // In a process of its own (composition/seed.ts says why); stopped with the server.
    const seed = importSeed();
    logger.info({ file: config.seedFile, pid: seed.pid }, 'school catalog is empty: loading the seed');
    const stop = () => seed.stop();
    process.once('SIGTERM', stop).once('SIGINT', stop);
    try {
      logger.info({ ...(await seed.done) }, 'seed loaded');
    } finally {
      process.off('SIGTERM', stop).off('SIGINT', stop);
    }
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
 * requests finish, close the store, exit 0. Also while the index is still being built or the
 * seed imported: the engine is closed (its build let go), and start-up goes no further.
 */
function handleShutdown(
  servers: readonly Server[],
  services: Services,
  config: Config,
  logger: pino.Logger,
): { readonly stopping: boolean } {
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
  return {
    get stopping() {
      return stopping;
    },
  };
}

/** Runs the API process until a signal stops it; a start-up failure is one line on stderr and exit code 1. */
export async function runProcess(): Promise<void> {
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
