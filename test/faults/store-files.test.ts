// A store file and the files SQLite keeps beside it (its write-ahead log -wal, the log's index
// -shm) must never be mixed: SQLite takes any log beside a file for that file's own and copies it
// in. The crash images here are real: a server SIGKILLed with its last changes only in its log.
// Then the store file lost (the log left behind), a backup moved in over the log of the store it
// replaced, or a log that holds no page 1 (no identity to tell by): the server and the CLI refuse
// to start, name the files and the ways out, and change nothing. A log that is live (another
// process runs on the store) is that process's, and is no reason to refuse. At run time, a file
// moved in over another file's live log answers 503 (readiness too), never has the log copied in,
// and the same process serves again once the right file is back.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fetchSchoolSearch, getReadiness } from '../../generated/sdk.gen.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { readWal } from '../../src/stores/sqlite/wal-file.ts';
import { runCli } from '../support/cli.ts';
import {
  demoLogin,
  REPO,
  SMALL_SEED,
  startFaultApp,
  startServer,
  tempDir,
  type FaultApp,
  type ServerProcess,
} from '../support/processes.ts';

let dir: ReturnType<typeof tempDir>;
const servers: ServerProcess[] = [];
let app: FaultApp | undefined;
beforeEach(() => {
  dir = tempDir('store-files');
});
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  await app?.close();
  app = undefined;
  dir.remove();
});

/** A store whose last changes are only in its log: a server that seeded it, made the demo user and metered searches, SIGKILLed. */
async function crashImage(db: string): Promise<void> {
  const server = await startServer(db);
  servers.push(server);
  const { client } = await demoLogin(server.baseUrl);
  for (let i = 0; i < 3; i++)
    expect((await fetchSchoolSearch({ client, query: { query: 'harv' } })).response!.status).toBe(200);
  server.child.kill('SIGKILL');
  await server.exited;
  expect(readWal(`${db}-wal`)?.committedFrames, 'the crash left committed changes in the log').toBeGreaterThan(0);
}

/** `node src/main.ts` on `db`, until it exits or listens (then it is stopped): whether it listened, its code and output. */
function startOrRefuse(
  db: string,
): Promise<{ listened: boolean; code: number | null; stderr: string; stdout: string }> {
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
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  let listened = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    stdout += `${line}\n`;
    if (line.includes('"msg":"listening"')) {
      listened = true;
      child.kill('SIGKILL');
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ listened, code, stderr, stdout });
    }),
  );
}

/** The bytes of each file (undefined: none there). */
function snapshot(files: readonly string[]): Array<Buffer | undefined> {
  return files.map((file) => (existsSync(file) ? readFileSync(file) : undefined));
}

/** The server and a CLI command both refuse the store at `db`, say `said`, and leave `files` as they were. */
async function expectRefused(db: string, said: readonly string[], files: readonly string[]): Promise<void> {
  const before = snapshot(files);
  const server = await startOrRefuse(db);
  expect(server.listened, `the server started on it:\n${server.stdout}`).toBe(false);
  expect(server.code).toBe(1);
  expect(snapshot(files), `the server changed the files: ${server.stderr}`).toEqual(before);
  for (const text of said) expect(server.stderr).toContain(text);
  expect(server.stdout).not.toContain('demo user created');
  const cli = await runCli(['user', 'create', '--email', 'someone@example.com'], {
    env: { DATABASE_PATH: db },
    input: 'a-password-of-length\n',
  });
  expect(cli.code).toBe(1);
  for (const text of said) expect(cli.stderr).toContain(text);
  // One line, no stack trace: an expected condition.
  expect(cli.stderr.trim().split('\n')).toHaveLength(1);
  expect(snapshot(files)).toEqual(before);
}

describe('the embedded store files at start', () => {
  test('when the store file is lost after a crash and its -wal and -shm are left, then the server and the CLI refuse to make a new store there, name the files and the ways out, and change nothing', async () => {
    const db = join(dir.path, 'store.db');
    await crashImage(db);
    rmSync(db);
    await expectRefused(
      db,
      [`There is no store file at ${db}`, `${db}-wal and ${db}-shm`, 'school-search restore', 'move all of them away'],
      [db, `${db}-wal`, `${db}-shm`],
    );
    expect(existsSync(db)).toBe(false);
  }, 120_000);

  test('when a backup (another store file) is moved in over the log a crashed store left, then both refuse it as another file’s log and change nothing', async () => {
    const db = join(dir.path, 'store.db');
    await crashImage(db);
    // The backup: a store of its own (made and closed cleanly by the CLI), moved into place.
    const backup = join(dir.path, 'backup.db');
    const made = await runCli(['user', 'create', '--email', 'backup@example.com'], {
      env: { DATABASE_PATH: backup },
      input: 'a-password-of-length\n',
    });
    expect(made.code).toBe(0);
    renameSync(backup, db);
    await expectRefused(
      db,
      [`${db}-wal`, 'the log was written by another file', 'move the log away'],
      [db, `${db}-wal`, `${db}-shm`],
    );
  }, 120_000);

  test('when a log that holds no page 1 is beside another store file, then SQLite’s quick_check of the two together refuses it', async () => {
    const db = join(dir.path, 'store.db');
    const store = await SqliteStore.open({ path: db });
    for (let i = 0; i < 50; i++)
      await store.users.create({
        id: crypto.randomUUID(),
        email: `user${i}@example.com`,
        passwordHash: 'x'.repeat(100),
        createdAt: new Date(),
        passwordVersion: 0,
        keysFromVersion: 0,
      });
    await store.close();
    // An update in place of the users' pages only, then a crash: the log has no page 1.
    const crashed = spawn(process.execPath, [
      '-e',
      `const { DatabaseSync } = require('node:sqlite');
       const db = new DatabaseSync(${JSON.stringify(db)});
       db.exec('PRAGMA wal_autocheckpoint = 0; UPDATE users SET request_count = request_count + 1');
       process.kill(process.pid, 'SIGKILL');`,
    ]);
    await new Promise((resolve) => crashed.once('close', resolve));
    const log = readWal(`${db}-wal`);
    expect(log?.committedFrames).toBeGreaterThan(0);
    expect(log?.pageOneIdentities).toEqual([]);
    // Another store, whose pages at those numbers are another table's.
    const other = join(dir.path, 'other.db');
    await (await SqliteStore.open({ path: other })).close();
    const raw = new DatabaseSync(other);
    raw.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
      INSERT INTO mail_outbox (id, recipient, subject, body, created_at, discard_after, next_attempt_at)
      SELECT 'mail' || i, 'r', 's', printf('%.1000c', 'x'), '', '', '' FROM n`);
    raw.close();
    renameSync(other, db);
    await expectRefused(db, [`${db}-wal`, 'quick_check'], [db, `${db}-wal`, `${db}-shm`]);
  }, 120_000);

  test('when another server runs on the store (its log is live), then a second server and CLI commands start on it as before', async () => {
    const db = join(dir.path, 'store.db');
    const first = await startServer(db);
    servers.push(first);
    const { client } = await demoLogin(first.baseUrl);
    expect((await fetchSchoolSearch({ client, query: { query: 'harv' } })).response!.status).toBe(200);
    expect(readWal(`${db}-wal`)?.committedFrames).toBeGreaterThan(0);
    const cli = await runCli(['user', 'create', '--email', 'second@example.com'], {
      env: { DATABASE_PATH: db },
      input: 'a-password-of-length\n',
    });
    expect(cli.code, cli.stderr).toBe(0);
    const second = await startServer(db);
    servers.push(second);
    for (const server of [first, second]) expect((await fetch(`${server.baseUrl}/health/ready`)).status).toBe(200);
    expect(existsSync(`${db}.checking`)).toBe(false);
  }, 120_000);
});

describe('the embedded store files at run time', () => {
  test('when a store file is moved in over the live log of another file, then every call is a 503 (readiness too) and the file is not changed; with the log’s own file back, the same app serves it', async () => {
    app = await startFaultApp({ dataDir: join(dir.path, 'data'), busyBudgetMs: 300 });
    const user = await app.user();
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harv' } })).response!.status).toBe(200);
    // Another process on the store, in the middle of a read: its log (with page 1) cannot be
    // emptied while it reads, whatever checkpoint the app makes.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite');
         const db = new DatabaseSync(${JSON.stringify(app.dbPath)}, { timeout: 5000 });
         db.exec('PRAGMA wal_autocheckpoint = 0');
         db.exec('PRAGMA user_version = ' + db.prepare('PRAGMA user_version').get().user_version);
         db.exec('BEGIN');
         db.prepare('SELECT count(*) FROM users').get();
         process.stdout.write('holding\\n');
         process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); });`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => createInterface({ input: holder.stdout! }).once('line', () => resolve()));
    try {
      const other = join(dir.path, 'other.db');
      await (await SqliteStore.open({ path: other })).close();
      const own = join(dir.path, 'own.db');
      renameSync(app.dbPath, own);
      renameSync(other, app.dbPath);
      const before = readFileSync(app.dbPath);

      for (let i = 0; i < 3; i++) {
        expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harv' } })).response!.status).toBe(503);
        expect((await getReadiness({ client: app.client() })).response!.status).toBe(503);
      }
      expect(readFileSync(app.dbPath).equals(before)).toBe(true);

      // The way out: the file the log belongs to, back at the path.
      renameSync(app.dbPath, other);
      renameSync(own, app.dbPath);
      expect((await getReadiness({ client: app.client() })).response!.status).toBe(200);
      expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harv' } })).response!.status).toBe(200);
    } finally {
      holder.stdin!.end('done\n');
      await new Promise((resolve) => holder.once('close', resolve));
    }
  }, 60_000);
});
