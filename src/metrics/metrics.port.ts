// What the process reports about its work, as a port: the HTTP layer and the search's composition
// call these hooks; an adapter (src/metrics/prometheus.metrics.ts) turns them into metrics. Nothing
// outside that adapter knows Prometheus. Every label value passed here comes from a fixed set (an
// operationId of the contract, a route group, a limiter's policy), never from a request's path,
// so the number of series stays bounded.

/** Requests that matched no operation of the contract are reported under one of these. */
export type RouteGroup = 'docs' | 'dashboard' | 'metrics' | 'other';

/** Why the store failed: `unavailable` — it could not be reached or refused the work (a 503). */
export type StoreFailure = 'unavailable' | 'error';

export interface Metrics {
  /**
   * A request the app answered: its operationId (or route group), status and time from arrival to
   * the last byte handed to the socket. Called on every request: an implementation must not allocate.
   */
  requestFinished(operation: string, status: number, seconds: number): void;
  /** One search answered by the search engine: the engine's time only, not HTTP's nor metering's. Same rule. */
  searchAnswered(seconds: number): void;
  /** The store failed while serving `operation` (or a background task, e.g. `searchIndexRefresh`). */
  storeFailed(operation: string, failure: StoreFailure): void;
  /** A rate limiter refused a request. */
  rateLimited(limiter: string): void;
}

/** Metrics off: every hook does nothing. */
export const NO_METRICS: Metrics = {
  requestFinished: () => undefined,
  searchAnswered: () => undefined,
  storeFailed: () => undefined,
  rateLimited: () => undefined,
};

/** The current values in Prometheus's text format, for GET /metrics. */
export type Scrape = () => Promise<{ readonly contentType: string; readonly body: string }>;

/** An adapter: the hooks, and what a scrape reads. */
export interface Telemetry {
  readonly metrics: Metrics;
  readonly scrape: Scrape;
}
