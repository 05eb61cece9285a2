// Rule 9 of the search: a catalog change made while the API runs (the command line importing into
// the store) is searchable within a second in every running API process, with no restart and no
// rebuild: each applies the import's changes as a delta (memory.engine.ts). Two real servers on
// one embedded store, the real command line, the generated client.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { runCli } from '../support/cli.ts';
import { demoLogin, testScope } from '../support/processes.ts';

const scope = testScope();
afterEach(() => scope.end());

/** How long each server waits between looks at the catalog's version (the production default). */
const REFRESH_MS = 250;
/** What "within a second" means here, on a loaded machine too: a delta of two schools takes milliseconds. */
const WITHIN_MS = 1500;

describe('catalog changes while the API runs', () => {
  test('when the command line imports new and renamed schools, then both running servers find them within a second, from a delta', async () => {
    const dir = scope.tempDir('fresh');
    const db = join(dir.path, 'store.db');
    const servers = [
      await scope.serve(db, { SEARCH_REFRESH_MS: String(REFRESH_MS) }),
      await scope.serve(db, { SEARCH_REFRESH_MS: String(REFRESH_MS) }),
    ];
    const clients = await Promise.all(servers.map(async (s) => (await demoLogin(s.baseUrl)).client));
    const names = async (client: (typeof clients)[number], query: string) =>
      (await fetchSchoolSearch({ client, query: { query } })).data!.requestresult.schools.map((s) => s.schoolname);
    for (const client of clients) {
      expect(await names(client, 'zanzibar')).toEqual([]);
      expect(await names(client, 'mit')).toEqual(['Massachusetts Institute of Technology']);
    }

    const file = join(dir.path, 'new.ndjson');
    writeFileSync(
      file,
      [
        { schoolname: 'Zanzibar Institute of Technology', city: 'Portland', stateprovince: 'OR' },
        // The seed's MIT, renamed: its old name must stop matching.
        {
          schoolid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
          schoolname: 'Massachusetts Institute of Tomorrow',
          city: 'Cambridge',
          stateprovince: 'MA',
          aliases: ['MIT'],
        },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );
    const imported = await runCli(['import', file], { env: { DATABASE_PATH: db } });
    expect(imported.code, imported.stderr).toBe(0);
    const importedAt = performance.now();

    const seen = await Promise.all(
      clients.map(async (client) => {
        for (;;) {
          const [found, renamed] = [await names(client, 'zanzibar'), await names(client, 'technology mit')];
          if (found.length === 1 && !renamed.includes('Massachusetts Institute of Technology'))
            return performance.now() - importedAt;
          if (performance.now() - importedAt > WITHIN_MS) return Infinity;
          await sleep(50);
        }
      }),
    );
    console.log(
      `the import was searchable on the two servers after ${seen.map((ms) => Math.round(ms)).join(' and ')} ms`,
    );
    for (const ms of seen) expect(ms).toBeLessThan(WITHIN_MS);
    for (const client of clients)
      expect(await names(client, 'tomorrow')).toEqual(['Massachusetts Institute of Tomorrow']);
    // Each server said so in its log: a delta of the two schools, the catalog not built again
    // (the first start built or loaded the index once).
    for (const server of servers) {
      const starts = ['search index built', 'search index loaded'];
      expect(server.lines.filter((l) => starts.includes(String(l['msg'])))).toHaveLength(1);
      expect(server.lines.filter((l) => l['msg'] === 'search index changes applied').at(-1)).toMatchObject({
        changes: 2,
      });
    }
  }, 60_000);
});
