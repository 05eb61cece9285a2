// A fresh embedded store in its own temporary directory: test files run in parallel.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { sharedData } from './shared-data.ts';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The NCES file as distributed, from ../shared/data (CI keeps it beside the repository): sharedData says whether it is there. */
export const IPEDS = sharedData('ipeds-hd2022.csv');
export const IPEDS_FILE = IPEDS.path;
export const SEED_FILE = join(REPO, 'data/seed/ipeds-hd2022.ndjson');
export const FIXTURES = join(REPO, 'test/fixtures');

export interface TempStore {
  readonly dir: string;
  readonly dbPath: string;
  readonly store: SqliteStore;
  /** Writes `content` (a string is written as UTF-8) to a file in the temporary directory. */
  file(name: string, content: string | Buffer): string;
  close(): Promise<void>;
}

export async function tempStore(): Promise<TempStore> {
  const dir = mkdtempSync(join(tmpdir(), 'school-search-import-'));
  const dbPath = join(dir, 'store.db');
  const store = await SqliteStore.open({ path: dbPath });
  return {
    dir,
    dbPath,
    store,
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
