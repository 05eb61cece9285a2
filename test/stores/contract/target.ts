// What the store contract suite needs from each adapter's test file: a way to make a store on a
// fresh database of its own, and what the server behind it cannot do (with the reason).
import type { Store } from '../../../src/domain/ports.ts';

export interface StoreFixture {
  /** A store on a fresh, empty database that no other test uses. */
  readonly store: Store;
  /** Closes `store` and opens the same database again: what the API sees after a restart. */
  reopen(): Promise<Store>;
  /** Closes whatever store is open and deletes the database. */
  dispose(): Promise<void>;
}

/** Features a wire-protocol server may lack; a test that needs one is skipped with the reason. */
export type Capability = 'search';

export interface StoreTarget {
  /** Named in every test title, e.g. `sqlite`, `mongodb`, `ferretdb`. */
  readonly name: string;
  /** Why this target cannot run here at all (e.g. no MONGODB_URI); undefined when it runs. */
  readonly unavailable?: string | undefined;
  /** Capabilities this target lacks, each with the reason its tests are skipped. */
  readonly missing?: Partial<Record<Capability, string>>;
  create(): Promise<StoreFixture>;
}
