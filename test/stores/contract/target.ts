// What the store contract suite needs from each adapter's test file: a way to make a store on a
// fresh database of its own.
import type { Store } from '../../../src/domain/store.port.ts';

export interface StoreFixture {
  /** A store on a fresh, empty database that no other test uses. */
  readonly store: Store;
  /** Closes `store` and opens the same database again: what the API sees after a restart. */
  reopen(): Promise<Store>;
  /** Closes whatever store is open and deletes the database. */
  dispose(): Promise<void>;
}

export interface StoreTarget {
  /** Named in every test title, e.g. `sqlite`, `mongodb`, `ferretdb`. */
  readonly name: string;
  /** Why this target cannot run here at all (e.g. no MONGODB_URI); undefined when it runs. */
  readonly unavailable?: string | undefined;
  create(): Promise<StoreFixture>;
}
