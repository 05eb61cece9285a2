// A store that was lost must never look like a new one. At start, an existing store file that is
// empty, not a database, or missing its tables stops the server and the CLI with a message that
// names the file and what to do; the file is left as it was (no seed, no demo user over it).
// Only a path with no file at all makes a new store, and several processes starting at once on
// one new path make one store. On MongoDB, a database that holds part of a store is not made
// whole again, empty, without MONGODB_ALLOW_MISSING_COLLECTIONS.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { COLLECTIONS } from '../../src/stores/mongodb/documents.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { MongoStore, StoreCollectionsMissingError } from '../../src/stores/mongodb/store.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { FERRETDB_MISSING } from '../../scripts/ferretdb/server.ts';
import { runCli } from '../support/cli.ts';
import { freshDatabaseName, mongoServers, openFreshMongoStore } from '../support/mongodb.ts';
import { REPO, SMALL_SEED, startServer, tempDir, type ServerProcess } from '../support/processes.ts';

let dir: ReturnType<typeof tempDir>;
const servers: ServerProcess[] = [];
beforeEach(() => {
  dir = tempDir('store-file');
});
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  dir.remove();
});

/** `node src/main.ts` on `db` until it exits (it must, within the timeout): its code and stderr. */
function startUntilExit(db: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: db,
      MONGODB_URI: '',
      SEED_FILE: SMALL_SEED,
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    }),
  );
}

const BROKEN: Array<[string, (path: string) => void, string]> = [
  ['empty (0 bytes)', (path) => writeFileSync(path, ''), 'is empty'],
  ['not a database', (path) => writeFileSync(path, 'this is not a database '.repeat(200)), 'is not an SQLite database'],
  [
    'an SQLite database of something else',
    (path) => {
      const db = new DatabaseSync(path);
      db.exec('CREATE TABLE notes (text TEXT)');
      db.close();
    },
    'not a school-search store',
  ],
];

describe('the embedded store file at start', () => {
  test.each(BROKEN)(
    'when the file at DATABASE_PATH is %s, then the server and the CLI stop, name the file and what to do, and leave it as it was',
    async (_, make, what) => {
      const db = join(dir.path, 'store.db');
      make(db);
      const before = readFileSync(db);
      const server = await startUntilExit(db);
      expect(server.code).toBe(1);
      expect(server.stderr).toContain(db);
      expect(server.stderr).toContain(what);
      expect(server.stderr).toContain('restore it from a backup, or move it away');
      expect(server.stdout).not.toContain('seed loaded');
      expect(server.stdout).not.toContain('demo user created');
      const cli = await runCli(['user', 'create', '--email', 'someone@example.com'], {
        env: { DATABASE_PATH: db },
        input: 'a-password-of-length\n',
      });
      expect(cli.code).not.toBe(0);
      expect(cli.stderr).toContain(db);
      expect(readFileSync(db).equals(before)).toBe(true);
    },
    90_000,
  );

  test('when a store misses one of its tables, then the server stops and names the table', async () => {
    const db = join(dir.path, 'store.db');
    (await SqliteStore.open({ path: db })).close();
    const raw = new DatabaseSync(db);
    raw.exec('DROP TABLE api_requests; DROP TABLE tokens; DROP TABLE users');
    raw.close();
    const server = await startUntilExit(db);
    expect(server.code).toBe(1);
    expect(server.stderr).toContain('is missing its tables users, tokens, api_requests');
  }, 60_000);

  test('when there is no file at the path, then several servers starting at once make one store, seeded once', async () => {
    const db = join(dir.path, 'new', 'store.db');
    const started = await Promise.all([startServer(db), startServer(db), startServer(db)]);
    servers.push(...started);
    for (const server of started) {
      const response = await fetch(`${server.baseUrl}/health/ready`);
      expect(response.status).toBe(200);
    }
    const store = await SqliteStore.open({ path: db });
    try {
      expect(await store.schools.count()).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 120_000);
});

const mongo = await mongoServers();
if (mongo.length === 0)
  console.warn(`MongoDB store collections — skipped: ${FERRETDB_MISSING}, and MONGODB_URI is not set`);

describe.skipIf(mongo.length === 0).each(mongo)('a MongoDB store missing collections on %s', (_, uri, flavor) => {
  const databases: string[] = [];
  afterAll(async () => {
    const { MongoClient } = await import('mongodb');
    const client = new MongoClient(uri);
    try {
      for (const name of databases) await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });

  test('when a core collection of an existing store is gone, then opening it is refused unless MONGODB_ALLOW_MISSING_COLLECTIONS; a new database opens', async () => {
    const database = freshDatabaseName();
    databases.push(database);
    const first = await openFreshMongoStore(uri, flavor, database);
    await first.db.collection(COLLECTIONS.users).drop();
    await first.close();
    // Refused before any index is made: the same on MongoDB and FerretDB.
    const refused = MongoStore.open({ uri, database, extension: SEARCH_EXTENSION });
    await expect(refused).rejects.toBeInstanceOf(StoreCollectionsMissingError);
    await expect(refused).rejects.toThrow(/collections users are missing/);
    // Allowed, the missing collection is made again with its indexes (FerretDB: those it can hold).
    await openFreshMongoStore(uri, flavor, database, { allowMissingCollections: true }).then((store) => store.close());
    const names = await openFreshMongoStore(uri, flavor, database).then(async (store) => {
      const collections = await store.db.listCollections({}, { nameOnly: true }).toArray();
      await store.close();
      return collections.map((c) => c.name);
    });
    expect(names).toContain(COLLECTIONS.users);
  }, 60_000);
});
