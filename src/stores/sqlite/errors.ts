import { StoreUnavailableError } from '../../domain/errors.ts';

// SQLite result codes (primary code = errcode & 0xff) that mean "the store cannot do this now",
// as opposed to a bug: busy/locked by another writer, I/O error, disk full, cannot open, read-only.
const UNAVAILABLE = new Set([5, 6, 10, 13, 14, 8, 26]);

/** Maps driver errors that mean "unavailable" to StoreUnavailableError; others pass through. */
export function translate(error: unknown): unknown {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof code === 'number' && UNAVAILABLE.has(code & 0xff)) {
    return new StoreUnavailableError('The embedded store is unavailable.', { cause: error });
  }
  return error;
}

/** Runs a store call, translating driver errors. Async so that adapters satisfy async ports. */
export async function guarded<T>(work: () => T): Promise<T> {
  try {
    return work();
  } catch (error) {
    throw translate(error);
  }
}
