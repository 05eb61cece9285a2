// An import killed half-way (SIGKILL of the command line while it writes a large file) leaves the
// store exactly as it was, and the next import and the next start work.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, test } from 'vitest';
import { createClient } from '../../generated/client/index.ts';
import { getReadiness } from '../../generated/sdk.gen.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { runCli } from '../support/cli.ts';
import { searchStore } from '../support/search.ts';
import { REPO, SCHOOLS, SMALL_SEED, drafts, startServer, tempDir } from '../support/processes.ts';

const ROWS = 60_000;
const EXISTING = {
  schoolid: '3f1d2c4b-5a69-4e7f-8a9b-0c1d2e3f4a5b',
  schoolname: 'Reed College',
  city: 'Portland',
  stateprovince: 'OR',
};
const QUERIES = ['reed', 'harv', 'univ', 'college'];

/** What a user of the store can observe of the catalog. */
async function catalog(dbPath: string) {
  const store = await SqliteStore.open({ path: dbPath });
  try {
    const searches: Record<string, unknown> = {};
    for (const query of QUERIES) searches[query] = await searchStore(store, query);
    return { count: await store.schools.count(), existing: await store.schools.findById(EXISTING.schoolid), searches };
  } finally {
    await store.close();
  }
}

/** A large canonical NDJSON file whose first row changes the existing school, then ROWS new schools. */
function bigImport(path: string): void {
  const words = [
    'Lake',
    'River',
    'Valley',
    'Mountain',
    'Pine',
    'Oak',
    'Maple',
    'Cedar',
    'Summit',
    'Harbor',
    'Prairie',
    'Liberty',
    'Heritage',
  ];
  const kinds = ['College', 'University', 'Institute', 'Academy', 'Community College', 'Seminary'];
  const states = ['CA', 'TX', 'NY', 'FL', 'IL', 'PA', 'OH', 'GA', 'ON', 'QC', 'BC'];
  const lines = [JSON.stringify({ ...EXISTING, schoolname: 'Reed College of the Arts', city: 'Beaverton' })];
  for (let i = 0; i < ROWS; i++) {
    lines.push(
      JSON.stringify({
        schoolname: `${words[i % words.length]} ${words[(i * 7) % words.length]} ${kinds[i % kinds.length]} ${i}`,
        city: `Springfield ${i % 500}`,
        stateprovince: states[i % states.length],
      }),
    );
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

let dir: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
});

describe('import killed half-way', () => {
  test('when the import command is killed while it writes, then the store is exactly as before, and the next import and start work', async () => {
    dir = tempDir('import-kill');
    const dbPath = join(dir.path, 'store.db');
    const store = await SqliteStore.open({ path: dbPath });
    await store.schools.upsertMany(drafts([...SCHOOLS, EXISTING]));
    await store.close();
    const before = await catalog(dbPath);
    expect(before.count).toBe(SCHOOLS.length + 1);

    const file = join(dir.path, 'big.ndjson');
    bigImport(file);
    const child = spawn(process.execPath, [join(REPO, 'bin/school-search.js'), 'import', file], {
      cwd: REPO,
      env: { ...process.env, DATABASE_PATH: dbPath, MONGODB_URI: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // Off a terminal the command reports each quarter of the write, from inside its transaction.
    let killedWriting = false;
    const killed = new Promise<NodeJS.Signals | null>((resolve) => {
      createInterface({ input: child.stderr! }).on('line', (line) => {
        if (!line.startsWith('writing: 50%')) return;
        killedWriting = true;
        child.kill('SIGKILL');
      });
      child.once('exit', (_code, signal) => resolve(signal));
    });
    expect(await killed).toBe('SIGKILL');
    // It died inside its one transaction, half of the rows written. (Where those pages were is
    // SQLite's business: with the 32 MiB page cache of a large import they may not have reached
    // the WAL yet; a smaller cache spills them there. Either way none may survive.)
    expect(killedWriting).toBe(true);

    expect(await catalog(dbPath)).toEqual(before);
    const check = new DatabaseSync(dbPath, { readOnly: true });
    expect(check.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    check.close();

    const next = await runCli(['import', SMALL_SEED], { env: { DATABASE_PATH: dbPath } });
    expect(next.code).toBe(0);
    expect(next.stdout).toMatch(/^ {2}inserted +3$/m);
    expect((await catalog(dbPath)).count).toBe(before.count + 3);

    const server = await startServer(dbPath);
    try {
      expect((await getReadiness({ client: createClient({ baseUrl: server.baseUrl }) })).response!.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
  });
});
