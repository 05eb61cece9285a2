import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../../domain/errors.ts';

// SQLite result codes (primary code = errcode & 0xff) that mean "the store cannot do this now",
// as opposed to a bug: busy/locked by another writer, I/O error, disk full, cannot open, read-only.
const UNAVAILABLE = new Set([5, 6, 8, 10, 13, 14, 26]);
const BUSY = new Set([5, 6]);

/**
 * How long a call keeps retrying while another connection (an import, the CLI, another API
 * process) holds the write lock, before it gives up with StoreUnavailableError (a 503).
 */
export const BUSY_BUDGET_MS = 5000;

function primaryCode(error: unknown): number | undefined {
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

/**
 * Runs a store call, translating driver errors. node:sqlite is synchronous, so SQLite's own busy
 * wait would freeze the whole server; connections therefore use no busy timeout, and a call that
 * finds the store locked is retried here, asynchronously, with backoff: other requests (and the
 * health routes) keep being served while it waits.
 */
export async function guarded<T>(work: () => T): Promise<T> {
  const deadline = performance.now() + BUSY_BUDGET_MS;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      return work();
    } catch (error) {
      const code = primaryCode(error);
      if (code === undefined || !BUSY.has(code) || performance.now() + delay > deadline) throw translate(error);
      await sleep(delay);
    }
  }
}
