// Time and size limits of the MongoDB store: a server that is slow, silent or saturated becomes a
// 503 within seconds, not a request held open (the driver's own defaults wait without limit for a
// pooled connection and until the operating system gives up on a silent one). Each client option
// below applies unless MONGODB_URI names it (docs/operations.md). The driver's `timeoutMS`
// (client-side operation timeout) is not among them: mongodb 7.x accepts it and ignores it
// ("has no effect", deprecated), so these are the limits there are.

/** What one search, history read or durable write may take on the server (maxTimeMS, wtimeoutMS). */
export const OPERATION_TIME_LIMIT_MS = 10_000;

/** What a request's read may take on the server: a 503 past it, not a read held to the socket timeout. */
export const BOUNDED_READ = { maxTimeMS: OPERATION_TIME_LIMIT_MS } as const;

/** How long an operation waits for a server it can use (a primary) before it fails. */
export const SERVER_SELECTION_TIMEOUT_MS = 5_000;

/**
 * A connection that stops answering (a partition, not a refusal) fails after this: the
 * operation's own limit plus time for the network. Only a silent connection reaches it.
 */
export const SOCKET_TIMEOUT_MS = OPERATION_TIME_LIMIT_MS + 5_000;

/** Opening a connection (and each heartbeat of the server monitor) gives up after this. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Connections per server per process (the driver's default, said once where it is decided). */
export const MAX_POOL_SIZE = 100;

/**
 * How long an operation waits for a pooled connection when all MAX_POOL_SIZE are busy: past it
 * the store is saturated, and a 503 sheds the load instead of queueing it without limit.
 */
export const WAIT_QUEUE_TIMEOUT_MS = 2_000;

/** The clocks of two API instances may differ by this much (a lease one writes, another reads): NTP keeps them far closer. */
export const CLOCK_SKEW_MS = 10_000;

/** How long a usage count may wait in its process before it is left to a later read (request.store.ts). */
export const COUNT_START_BUDGET_MS = 30_000;
