// Commands and servers on one embedded store wait their turn: a command that finds the store
// locked by another process (here: a connection holding the file's exclusive lock, as the last
// connection of an import does while it folds its log into the file) waits for it, and one that
// waits past the busy budget (5 s) says so in one line, without a stack trace. Operators script
// these commands; several at once must all succeed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dir: string;
let db: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'school-search-cli-busy-'));
  db = join(dir, 'store.db');
  const first = await createUser('first@example.com');
  expect(first.code, first.stderr).toBe(0);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function createUser(email: string) {
  return runCli(['user', 'create', '--email', email], { env: { DATABASE_PATH: db }, input: 'a-password-of-length\n' });
}

/** Holds the store file's exclusive lock (no other connection can even read) until `release()`. */
function lockExclusively(): { release(): void } {
  const holder = new DatabaseSync(db, { timeout: 0 });
  holder.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
  return {
    release() {
      holder.exec('ROLLBACK');
      holder.close();
    },
  };
}

describe('school-search commands on a locked store', () => {
  test('when another process holds the store for a second, then four commands started together all wait and succeed', async () => {
    const lock = lockExclusively();
    const commands = ['a', 'b', 'c', 'd'].map((name) => createUser(`${name}@example.com`));
    await sleep(1500);
    lock.release();
    for (const result of await Promise.all(commands)) {
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim()).toMatch(UUID);
    }
  }, 30_000);

  test('when another process holds the store past the busy budget, then a command fails with one line and no stack trace', async () => {
    const lock = lockExclusively();
    try {
      const result = await createUser('late@example.com');
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        'school-search: The embedded store is unavailable. (database is locked)',
      ]);
    } finally {
      lock.release();
    }
    expect((await createUser('late@example.com')).code).toBe(0);
  }, 30_000);
});
