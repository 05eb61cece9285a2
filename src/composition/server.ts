// The API server as the configuration composes it, in steps that src/main.ts (the process) and the
// benchmark's server (scripts/bench/server.ts) both run, so that the bench measures exactly what
// operators run: the store, the engine and the mailer the configuration names and the services over them;
// what must be ready before the first request; the HTTP app.
import type { Express } from 'express';
import type { pino } from 'pino';
import type { Config } from '../config.ts';
import { KEEP_EVERYTHING, keepDays } from '../domain/metering/retention.ts';
import { createApp, type AppOptions } from '../http/app.ts';
import { loadContract } from '../http/contract.ts';
import { dashboardAssets } from '../http/routes/dashboard-assets.ts';
import { pickerAssets } from '../http/routes/picker-assets.ts';
import { NO_METRICS, type Metrics, type Telemetry } from '../metrics/metrics.port.ts';
import { Argon2Hasher } from '../security/argon2.hasher.ts';
import { lowerThreadPoolPriority } from '../security/thread-priority.ts';
import { createServices, type Services } from './services.ts';
import { composeEngine } from './engine.ts';
import { accountSettingsOf, composeMailer, mailEvents } from './mailer.ts';
import { openStore } from './store.ts';

/**
 * Prometheus metrics when a way to read them is configured (METRICS_PORT or METRICS_TOKEN);
 * otherwise none are collected, and prom-client is not loaded.
 */
export async function composeTelemetry(config: Config): Promise<Telemetry | undefined> {
  if (config.metrics.port === undefined && config.metrics.token === undefined) return undefined;
  const { prometheusTelemetry } = await import('../metrics/prometheus.metrics.ts');
  return prometheusTelemetry({ engine: config.store.kind === 'mongodb' ? config.store.search.kind : 'memory' });
}

/** The store the configuration names, the services over it and the engine that answers searches. */
export async function composeServices(
  config: Config,
  logger: pino.Logger,
  metrics: Metrics = NO_METRICS,
): Promise<Services> {
  const store = await openStore(config.store, { warn: (message, details) => logger.warn(details, message) });
  // Only outside production (production with mail refuses to start without it): a note, not a warning.
  if (!config.linkSecrets && config.mail.kind !== 'none')
    logger.info(
      'LINK_SECRET is not set: links in e-mails are derived with a secret of this process, so mail still waiting in the outbox when it stops is dropped, and other instances cannot send it. Set LINK_SECRET (the same on every instance).',
    );
  return createServices({
    store,
    mailer: await composeMailer(config, logger),
    mailEvents: mailEvents(logger),
    ...accountSettingsOf(config),
    hasher: new Argon2Hasher(config.argon2, config.argon2Concurrency),
    retention: config.requestRetentionDays > 0 ? keepDays(config.requestRetentionDays) : KEEP_EVERYTHING,
    engine: await composeEngine(store, config, logger, metrics),
    metrics,
    publishableLimits: config.publishableLimits,
  });
}

/** Before the first request: the search index built, the password hasher's thread pool warm, the dashboard and the picker bundled, all at once. */
export async function startServices(services: Services): Promise<{ indexMs: number }> {
  const started = performance.now();
  // The record writer's thread starts while the index loads, not at the first search.
  services.store.requests.warmUp?.();
  // The index is read or built, the first password hashed (argon2's threads) and the dashboard
  // and the picker bundled (esbuild's process) at once: the search waits for none of the others.
  // A broken bundle stops start-up here rather than failing its first visitor.
  const [indexMs] = await Promise.all([
    services.engine.start().then(() => performance.now() - started),
    services.auth.warmUp(),
    dashboardAssets(),
    pickerAssets(),
  ]);
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
