import { StoreUnavailableError } from '../../domain/shared/errors.ts';

// SQLite result codes (primary code = errcode & 0xff) that mean "the store cannot do this now",
// as opposed to a bug: busy/locked by another writer, read-only, I/O error, damaged file, disk
// full, cannot open, not a database.
const UNAVAILABLE = new Set([5, 6, 8, 10, 11, 13, 14, 26]);
/** Another connection holds the lock: retry. */
export const BUSY = new Set([5, 6]);
/**
 * The connection itself may be unusable (read-only, I/O error, damaged or foreign file, cannot
 * open): it is closed, and the next call opens the file again. Not for a full disk: SQLite rolls
 * the transaction back and the connection stays good.
 */
export const RECONNECT = new Set([8, 10, 11, 14, 26]);

/**
 * How long a call keeps retrying while another connection (an import, the CLI, another API
 * process) holds the write lock, before it gives up with StoreUnavailableError (a 503).
 * SqliteOptions.busyBudgetMs overrides it (tests).
 */
export const BUSY_BUDGET_MS = 5000;

export function primaryCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

/** Maps driver errors that mean "unavailable" to StoreUnavailableError; others pass through. */
export function translate(error: unknown): unknown {
  const code = primaryCode(error);
  if (code !== undefined && UNAVAILABLE.has(code)) {
    return new StoreUnavailableError('The embedded store is unavailable.', { cause: error });
  }
  return error;
}
