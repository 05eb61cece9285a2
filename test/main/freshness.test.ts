// Rule 9 of the search: a catalog change made while the API runs (the command line importing into
// the store) is searchable within seconds in every running API process, with no restart. Two
// real servers on one embedded store, the real command line, the generated client.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { runCli } from '../support/cli.ts';
import { demoLogin, testScope } from '../support/processes.ts';

const scope = testScope();
afterEach(() => scope.end());

/** How long each server waits between looks at the catalog's version (production default: 1 s). */
const REFRESH_MS = 1000;
/** What "within a few seconds" means here, on a loaded machine too. */
const WITHIN_MS = 5000;

describe('catalog changes while the API runs', () => {
  test('when the command line imports new and renamed schools, then both running servers find them within 5 s', async () => {
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
    for (const ms of seen) expect(ms).toBeLessThan(WITHIN_MS);
    for (const client of clients)
      expect(await names(client, 'tomorrow')).toEqual(['Massachusetts Institute of Tomorrow']);
    // Each server said so in its log.
    for (const server of servers)
      expect(server.lines.filter((l) => String(l['msg']).startsWith('search index ')).length).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
