// school-search backup and restore, as operators run them: child processes on a store a real
// server uses. A backup is made while the server runs, is a sound store in one file with an
// identity of its own, and never overwrites anything. A restore is refused while any process has
// the store open; with none, it keeps the store it replaces (never deleted), takes the -wal and
// -shm away and puts the backup in place, and a server then serves the backup. It is also the way
// back from a store file lost after a crash. Every refusal is one line, and changes nothing.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { headerOf } from '../../src/stores/sqlite/store-identity.ts';
import { runCli } from '../support/cli.ts';
import { demoLogin, DEMO, startServer, tempDir, type ServerProcess } from '../support/processes.ts';

let dir: ReturnType<typeof tempDir>;
let db: string;
const servers: ServerProcess[] = [];
beforeEach(() => {
  dir = tempDir('backup');
  db = join(dir.path, 'data', 'store.db');
});
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  dir.remove();
});

const cli = (args: string[], input?: string) =>
  runCli(args, { env: { DATABASE_PATH: db }, ...(input === undefined ? {} : { input }) });
const createUser = (email: string) => cli(['user', 'create', '--email', email], 'a-password-of-length\n');

async function serve(): Promise<ServerProcess> {
  const server = await startServer(db);
  servers.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
}

/** A server on the store, the demo user's two searches metered. */
async function servedStore(): Promise<ServerProcess> {
  const server = await serve();
  const { client } = await demoLogin(server.baseUrl);
  for (let i = 0; i < 2; i++)
    expect((await fetchSchoolSearch({ client, query: { query: 'harv' } })).response!.status).toBe(200);
  return server;
}

function emails(file: string): string[] {
  const raw = new DatabaseSync(file, { readOnly: true });
  try {
    return (raw.prepare('SELECT email FROM users ORDER BY email').all() as Array<{ email: string }>).map(
      (r) => r.email,
    );
  } finally {
    raw.close();
  }
}

/** One line on stderr, no stack trace: an expected refusal. */
function expectOneLine(result: { code: number | null; stderr: string }, text: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain(text);
}

describe('school-search backup', () => {
  test('while a server runs on the store, it writes a sound copy with an identity of its own, in one line, and never overwrites a file', async () => {
    await servedStore();
    const target = join(dir.path, 'backups', 'store-1.db');
    const made = await cli(['backup', target]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(
      new RegExp(
        `^Backed up ${db} to ${target}: 3 schools, 1 users, 2 request records \\([\\d.]+ MiB\\) in [\\d.]+ s\\.\\n$`,
      ),
    );
    // Nothing else beside it: the copy was made under another name and linked into place.
    expect(readdirSync(join(dir.path, 'backups'))).toEqual(['store-1.db']);
    const raw = new DatabaseSync(target, { readOnly: true });
    try {
      expect(raw.prepare('PRAGMA quick_check').get()).toEqual({ quick_check: 'ok' });
      expect(Number((raw.prepare('SELECT count(*) AS n FROM api_requests').get() as { n: number }).n)).toBe(2);
    } finally {
      raw.close();
    }
    expect(emails(target)).toEqual([DEMO.email]);
    const identity = headerOf(target)!.identity;
    expect(identity).not.toBe(0);
    expect(identity).not.toBe(headerOf(db)!.identity);

    const again = await cli(['backup', target]);
    expectOneLine(again, 'already exists');
    expect(headerOf(target)!.identity).toBe(identity);
  }, 120_000);
});

describe('school-search restore', () => {
  test('while a server runs on the store, it is refused in one line and changes nothing; with none, the backup is put in place, the replaced store kept, and a server serves the backup', async () => {
    const server = await servedStore();
    const backup = join(dir.path, 'backup.db');
    expect((await cli(['backup', backup])).code).toBe(0);
    expect((await createUser('after@example.com')).code).toBe(0);

    const inode = statSync(db).ino;
    expectOneLine(await cli(['restore', backup]), 'is open in another process');
    expect(statSync(db).ino).toBe(inode);
    expect(readdirSync(join(dir.path, 'data')).filter((name) => name.includes('.replaced-'))).toEqual([]);
    await stop(server);

    const restored = await cli(['restore', backup]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(
      new RegExp(
        `^Restored ${db} from ${backup}: 3 schools, 1 users, 2 request records\\. The store it replaced is kept at ${db}\\.replaced-\\d{4}-\\d\\d-\\d\\dT\\d{6}Z\\.\\n$`,
      ),
    );
    const replaced = restored.stdout.match(/kept at (\S+)\.\n/)![1]!;
    // The store it replaced, whole on its own (its log folded in), with the user made after the backup.
    expect(existsSync(`${replaced}-wal`)).toBe(false);
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(existsSync(`${db}-shm`)).toBe(false);
    expect(emails(replaced)).toEqual(['after@example.com', DEMO.email]);
    expect(emails(db)).toEqual([DEMO.email]);
    // A copy with an identity of its own, not the backup's.
    expect(headerOf(db)!.identity).not.toBe(headerOf(backup)!.identity);

    const again = await serve();
    const { client } = await demoLogin(again.baseUrl);
    expect((await fetchSchoolSearch({ client, query: { query: 'harv' } })).response!.status).toBe(200);
  }, 180_000);

  test('when the store file was lost after a crash (its -wal and -shm left), then the restore puts the backup in place, keeps what was left aside, and a server starts', async () => {
    const server = await servedStore();
    const backup = join(dir.path, 'backup.db');
    expect((await cli(['backup', backup])).code).toBe(0);
    server.child.kill('SIGKILL');
    await server.exited;
    const log = readFileSync(`${db}-wal`);
    rmSync(db);

    const restored = await cli(['restore', backup]);
    expect(restored.code, restored.stderr).toBe(0);
    const kept = restored.stdout.match(/What was left of the lost store is kept at (\S+)\.\n$/)?.[1];
    expect(kept, restored.stdout).toMatch(/\.replaced-.*-wal$/);
    expect(readFileSync(kept!).equals(log)).toBe(true);
    expect(existsSync(`${db}-shm`)).toBe(false);

    const again = await serve();
    expect((await fetch(`${again.baseUrl}/health/ready`)).status).toBe(200);
  }, 180_000);

  test('when the file given is not a sound store, then the restore is refused in one line and the store is left as it was', async () => {
    expect((await createUser('someone@example.com')).code).toBe(0);
    const before = readFileSync(db);
    const garbage = join(dir.path, 'garbage.db');
    writeFileSync(garbage, 'not a database '.repeat(1000));
    expectOneLine(await cli(['restore', garbage]), 'is not a sound school-search store');
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(readdirSync(join(dir.path, 'data')).sort()).toEqual(['store.db', 'store.db.quotas']);
  }, 60_000);
});
