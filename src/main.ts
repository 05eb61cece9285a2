// The composition root: reads the configuration, opens the store, seeds it when empty, builds
// the app and listens. Nothing else in the code base binds a port (configuration: src/config.ts).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { Express } from 'express';
import { createApp, type AppOptions } from './app.ts';
import { ConfigError, DEMO_EMAIL, DEMO_PASSWORD, loadConfig, type Config } from './config.ts';
import { EmailTakenError } from './domain/errors.ts';
import { loadContract } from './http/contract.ts';
import { dashboardAssets } from './http/dashboard.assets.ts';
import { drainConnections, listen } from './http/server.ts';
import { importFile } from './import/import.service.ts';
import { Argon2Hasher } from './security/argon2.hasher.ts';
import { lowerThreadPoolPriority } from './security/thread-priority.ts';
import { createServices, unmanaged, type Services } from './services.ts';
import { openStore, pipelineEngine, storeLocation } from './stores/open.ts';

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
  const logger = pino({ level: config.logLevel });
  const services = await composeServices(config, logger);
  await prepareStore(services, config, logger);
  await startServices(services);
  const server = await listen(composeApp(services, config, logger), config.port, config.host, logger);
  const { port } = server.address() as AddressInfo;
  logger.info(
    { url: `http://${config.host}:${port}`, docs: `${config.publicBaseUrl}/docs`, dashboard: `${config.publicBaseUrl}/dashboard`, store: services.store.kind, database: storeLocation(config.store) },
    'listening',
  );
  handleShutdown(server, services, config, logger);
}

// The three steps below are exported for the benchmark's server (scripts/bench/server.ts), which
// must run exactly what operators run; nothing else imports this file.

/** The store the configuration names, the services over it and the engine that answers searches. */
export async function composeServices(config: Config, logger: pino.Logger): Promise<Services> {
  const store = await openStore(config.store);
  const pipeline = pipelineEngine(store, config.store);
  return createServices({
    store,
    hasher: new Argon2Hasher(config.argon2, config.argon2Concurrency),
    tokenTtlSeconds: config.tokenTtlSeconds,
    ...(pipeline ? { engine: unmanaged(pipeline) } : {}),
    search: {
      refreshMs: config.searchRefreshMs,
      onRefresh: (event) => {
        if (event.ok) logger.info({ schools: event.schools, ms: Math.round(event.ms) }, 'search index built');
        else logger.warn({ err: event.error }, 'search index not refreshed: the previous one keeps serving');
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

/** The HTTP app over the services, with the configuration's HTTP settings (`overrides`: the bench's). */
export function composeApp(
  services: Services,
  config: Config,
  logger: pino.Logger,
  overrides: Partial<Pick<AppOptions, 'validateResponses' | 'rateLimits'>> = {},
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
    ...overrides,
  });
}

async function prepareStore(services: Services, config: Config, logger: pino.Logger): Promise<void> {
  if (config.seedWhenEmpty && (await services.store.schools.count()) === 0) {
    logger.info({ file: config.seedFile }, 'school catalog is empty: loading the seed');
    const report = await importFile(services.store, config.seedFile, {});
    logger.info({ ...report.counts }, 'seed loaded');
  }
  if (config.demoUser) {
    if (!['127.0.0.1', 'localhost', '::1'].includes(config.host)) {
      logger.warn({ host: config.host, email: DEMO_EMAIL }, 'the demo user, whose password is public, is enabled on a non-loopback address: set NODE_ENV=production or DEMO_USER=false');
    }
    try {
      await services.auth.createUser(DEMO_EMAIL, DEMO_PASSWORD);
      logger.info({ email: DEMO_EMAIL }, 'demo user created');
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
    }
  }
}

/** SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the store, exit 0. */
function handleShutdown(server: Server, services: Services, config: Config, logger: pino.Logger): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    timer.unref();
    const stopDraining = drainConnections(server);
    server.close(() => {
      stopDraining();
      services.engine.close();
      void services.store.close().then(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
    // Logged only now that the listener is closed: whoever reads this line (an orchestrator, a
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
    process.stderr.write(`school-search: cannot start: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
    process.exit(1);
  }
}
