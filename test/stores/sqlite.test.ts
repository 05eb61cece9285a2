// The embedded store (node:sqlite) against the store contract suite: each fixture is a store
// file in a temporary directory of its own, so tests and files can run in parallel.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../src/domain/ports.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { storeContractSuite } from './contract/suite.ts';

storeContractSuite(
  {
    name: 'sqlite',
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'school-search-contract-'));
      const path = join(dir, 'store.db');
      let store: Store = await SqliteStore.open({ path });
      return {
        // A getter: after reopen() the fixture's store is the reopened one.
        get store() {
          return store;
        },
        async reopen() {
          await store.close();
          store = await SqliteStore.open({ path });
          return store;
        },
        async dispose() {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
);
