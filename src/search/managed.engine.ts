// The engine that answers searches, as the process runs it: built before the first search, kept
// fresh as the catalog changes, closed at shutdown. The in-process index does all three
// (memory/memory.engine.ts: it rebuilds when the catalog's version moves); a MongoDB pipeline
// needs none of them (unmanaged).
import type { SearchEngine } from '../domain/search/engine.port.ts';

/** The engine that answers searches, with what the process does to keep it fresh. */
export interface ManagedEngine extends SearchEngine {
  /** Builds what the engine needs before the first search (the in-process index); then keeps it fresh. */
  start(): Promise<void>;
  /** Picks up a changed catalog now, instead of at the next periodic check; true when it did. */
  refresh(): Promise<boolean>;
  close(): void;
}

/** An engine that needs no building or refreshing (a MongoDB pipeline). */
export function unmanaged(engine: SearchEngine): ManagedEngine {
  return {
    search: (q) => engine.search(q),
    ready: async () => engine.ready?.(),
    start: async () => undefined,
    refresh: async () => false,
    close: () => undefined,
  };
}
