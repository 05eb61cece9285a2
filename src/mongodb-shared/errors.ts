// The MongoDB driver's failures as this project reads them: which mean "the store cannot answer
// now" (StoreUnavailableError, a 503 with Retry-After) and which are an operator's setup problem
// (MongoSetupError). Shared by the two users of the driver, which must agree on it and import
// nothing of each other: the MongoDB store (src/stores/mongodb/) and the search engines on MongoDB
// (src/search/mongodb/, whose own setup failures are in its setup.ts).
import {
  MongoClientClosedError,
  MongoDriverError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';
import { StoreUnavailableError } from '../domain/shared/errors.ts';

/**
 * Server error codes that mean "not now" rather than "wrong": the primary stepped down or is
 * shutting down, a node is unreachable, the operation ran out of time, the write concern could
 * not be met. A retry later (or on the next primary) can succeed.
 */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  64, // WriteConcernFailed
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

export { MongoSetupError } from './setup-error.ts';

/**
 * Driver errors the driver does not export as classes, by name: every pooled connection stayed
 * busy past waitQueueTimeoutMS (the store is saturated); the pool was closed under the operation
 * (the client closing, at shutdown).
 */
const UNAVAILABLE_DRIVER_ERRORS = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError']);

/** Driver errors that mean "the store cannot answer now" become StoreUnavailableError (a 503). */
export function translate(error: unknown): unknown {
  if (
    (error instanceof MongoDriverError && UNAVAILABLE_DRIVER_ERRORS.has(error.name)) ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoWriteConcernError ||
    (error instanceof MongoServerError &&
      (UNAVAILABLE_CODES.has(Number(error.code)) || error.hasErrorLabel('RetryableWriteError')))
  ) {
    return new StoreUnavailableError('The MongoDB store is unavailable.', { cause: error });
  }
  return error;
}

/** Runs a driver call; "unavailable" errors are rethrown as StoreUnavailableError. */
export async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translate(error);
  }
}

/**
 * Code 27 (IndexNotFound): the index to drop is not there. Two instances of a new version that
 * start together both list an outdated index and both drop it: the later one's drop finds it
 * gone, which is what it wanted (issue 43, L1).
 */
export function isIndexNotFound(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 27;
}

/**
 * E11000: a unique index refused the write. `field` narrows it to that index when the server
 * names it (keyPattern); when it does not (FerretDB v1, old servers), any duplicate counts.
 */
export function isDuplicateKey(error: unknown, field?: string): boolean {
  if (!(error instanceof MongoServerError) || error.code !== 11000) return false;
  const pattern = (error as MongoServerError & { keyPattern?: Record<string, unknown> }).keyPattern;
  return field === undefined || pattern === undefined || field in pattern;
}
