// The metrics adapter: the Metrics port (metrics.port.ts) over prom-client, in a registry of its
// own (never prom-client's global one: tests run several apps in one process). The only module
// that imports prom-client (.dependency-cruiser.cjs).
//
// prom-client's labelled counters and histograms build a label object and a hash string on
// every inc/observe (a cost on every request: docs/metrics.md). The two series
// written on every request and every search therefore count into preallocated typed arrays
// here, and are read out in prom-client's own format only when scraped; the rare ones (store
// failures, rate-limit refusals) are plain prom-client counters.
import { collectDefaultMetrics, Counter, Registry, type Metric } from 'prom-client';
import type { Metrics, StoreFailure, Telemetry } from './metrics.port.ts';

/** From a health check (~0.1 ms) to a login under load (~1 s) and a stuck request (10 s). */
export const REQUEST_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const;
/** The in-process index answers in well under a millisecond (docs/search.md); a MongoDB engine in milliseconds. */
export const SEARCH_BUCKETS = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
] as const;

/** Beyond this many distinct operation labels (the contract has 16), the rest count as `other`. */
const MAX_OPERATIONS = 64;
const FIRST_STATUS = 100;
const LAST_STATUS = 599;

export interface PrometheusOptions {
  /** Which engine answers searches (`memory`, `text`, `atlas`): a constant label of the search histogram. */
  readonly engine: string;
  /** prom-client's process and Node.js metrics, event-loop delay included (default: on). */
  readonly defaultMetrics?: boolean;
}

export function prometheusTelemetry(options: PrometheusOptions): Telemetry {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) {
    // nodejs_eventloop_lag_* come from perf_hooks.monitorEventLoopDelay sampled every 10 ms;
    // the percentiles cover the time since the previous scrape (docs/metrics.md).
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  }
  const requests = new RequestSeries();
  const search = new Buckets(SEARCH_BUCKETS);
  register(registry, {
    name: 'school_search_http_requests_total',
    help: 'Requests answered by the app, by operation (an operationId of the contract, or docs, dashboard, metrics, other) and status.',
    type: 'counter',
    values: () => requests.counts(),
  });
  register(registry, {
    name: 'school_search_http_request_duration_seconds',
    help: 'Time from a request arriving to its response being sent, by operation.',
    type: 'histogram',
    values: () => requests.durations('school_search_http_request_duration_seconds'),
  });
  register(registry, {
    name: 'school_search_search_duration_seconds',
    help: 'Time the search engine took to answer one search (without HTTP, authentication or metering).',
    type: 'histogram',
    values: () =>
      search.count === 0 ? [] : search.export('school_search_search_duration_seconds', { engine: options.engine }),
  });
  const storeErrors = new Counter({
    name: 'school_search_store_errors_total',
    help: 'Store failures, by operation (or background task) and kind (unavailable: answered 503).',
    labelNames: ['operation', 'kind'],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'school_search_rate_limited_total',
    help: 'Requests refused with 429, by limiter.',
    labelNames: ['limiter'],
    registers: [registry],
  });

  const metrics: Metrics = {
    requestFinished: (operation, status, seconds) => requests.record(operation, status, seconds),
    searchAnswered: (seconds) => search.observe(seconds),
    storeFailed: (operation: string, kind: StoreFailure) => storeErrors.inc({ operation, kind }),
    rateLimited: (limiter) => rateLimited.inc({ limiter }),
  };
  return {
    metrics,
    scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}

/** One sample of a metric as prom-client's registry formats it (the shape its `get()` returns). */
interface Sample {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly metricName?: string;
}

/**
 * A metric whose values are read out at scrape time. prom-client's registry reads a metric
 * through `get()` (typed in its index.d.ts as MetricObjectWithValues); the cast is to its
 * Metric union, which lists only its own classes.
 */
function register(
  registry: Registry,
  spec: { name: string; help: string; type: 'counter' | 'histogram'; values: () => Sample[] },
): void {
  const metric = {
    name: spec.name,
    help: spec.help,
    type: spec.type,
    aggregator: 'sum',
    get: async () => ({ name: spec.name, help: spec.help, type: spec.type, aggregator: 'sum', values: spec.values() }),
  };
  registry.registerMetric(metric as unknown as Metric);
}

/** A histogram of one series, counted without allocating: counts per bucket, sum and count. */
export class Buckets {
  readonly bounds: readonly number[];
  /** Observations per bucket (not cumulative): counts[i] holds bounds[i-1] < v <= bounds[i]. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    if (i < bounds.length) this.counts[i]!++;
    this.sum += value;
    this.count++;
  }

  /** Cumulative `_bucket` samples up to `+Inf`, then `_sum` and `_count`, as Prometheus wants them. */
  export(name: string, labels: Record<string, string>): Sample[] {
    const samples: Sample[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += this.counts[i]!;
      samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: this.bounds[i]! }, value: cumulative });
    }
    samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: this.count });
    samples.push({ metricName: `${name}_sum`, labels, value: this.sum });
    samples.push({ metricName: `${name}_count`, labels, value: this.count });
    return samples;
  }
}

/** Per operation: a count per status (100–599) and a latency histogram, each slot made once. */
class RequestSeries {
  readonly #slots = new Map<string, { statuses: Float64Array; latency: Buckets }>();

  record(operation: string, status: number, seconds: number): void {
    const slot = this.#slots.get(operation) ?? this.#slot(operation);
    const index = status < FIRST_STATUS || status > LAST_STATUS ? LAST_STATUS - FIRST_STATUS : status - FIRST_STATUS;
    slot.statuses[index]!++;
    slot.latency.observe(seconds);
  }

  /** First sight of an operation (once per label for the life of the process). */
  #slot(operation: string) {
    if (this.#slots.size >= MAX_OPERATIONS) return this.#slots.get('other') ?? this.#make('other');
    return this.#make(operation);
  }

  #make(operation: string) {
    const slot = { statuses: new Float64Array(LAST_STATUS - FIRST_STATUS + 1), latency: new Buckets(REQUEST_BUCKETS) };
    this.#slots.set(operation, slot);
    return slot;
  }

  counts(): Sample[] {
    const samples: Sample[] = [];
    for (const [operation, { statuses }] of this.#slots) {
      for (let i = 0; i < statuses.length; i++) {
        if (statuses[i]! > 0)
          samples.push({ labels: { operation, status: String(FIRST_STATUS + i) }, value: statuses[i]! });
      }
    }
    return samples;
  }

  durations(name: string): Sample[] {
    return [...this.#slots].flatMap(([operation, { latency }]) => latency.export(name, { operation }));
  }
}
