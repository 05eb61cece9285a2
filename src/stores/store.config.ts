// Which store to open, and how: the stores' own settings. src/config.ts reads them from the
// environment (MONGODB_URI, MONGODB_SEARCH, DATABASE_PATH); src/composition/store.ts opens the store they name.

export type StoreConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | {
      readonly kind: 'mongodb';
      readonly uri: string;
      /**
       * Open a database that holds a store whose core collections are missing (they are made
       * again, empty, and an empty catalog is seeded): MONGODB_ALLOW_MISSING_COLLECTIONS.
       */
      readonly allowMissingCollections?: boolean;
      /**
       * Which engine answers searches on this MongoDB (MONGODB_SEARCH): `memory` the in-process
       * index of the catalog (the search core); `text` $text over the n-gram text index (any
       * MongoDB); `atlas` the Atlas Search index of this name. The store itself never reads it: the
       * composition root picks the search wing's engine by it (src/composition/engine.ts).
       */
      readonly search:
        | { readonly kind: 'memory' }
        | { readonly kind: 'text' }
        | { readonly kind: 'atlas'; readonly index: string };
    };

/** A store reports what it repaired by itself, and what was lost in doing so. */
export type StoreWarning = (message: string, details: Readonly<Record<string, unknown>>) => void;
