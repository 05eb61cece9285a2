// Time limits of the MongoDB store: a server that is slow or silent becomes a 503, not a request
// held open (the driver's own defaults wait indefinitely).

/** What one search, history read or durable write may take on the server (maxTimeMS, wtimeoutMS). */
export const OPERATION_TIME_LIMIT_MS = 10_000;

/** Longer than any operation's own limit: only a connection that has gone silent reaches it. */
export const SOCKET_TIMEOUT_MS = 30_000;
