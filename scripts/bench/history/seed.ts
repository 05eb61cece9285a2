// The store the history bench reads: a fresh embedded store file with one heavy user (a million
// request records by default) and a few lighter ones, their records interleaved in time order
// as they would have been appended, so that the heavy user's rows share the table and the
// (user, time, id) index with others'. Records go through the store's own writeRecords, in big
// transactions: the users' totals and per-day counters are kept exactly as the API keeps them.
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { Config } from '../../../src/config.ts';
import { encodeCursor } from '../../../src/domain/metering/history-cursor.ts';
import type { RequestRecord } from '../../../src/domain/metering/metering.ports.ts';
import { SEARCH_COST } from '../../../src/domain/search/search.service.ts';
import { Argon2Hasher } from '../../../src/security/argon2.hasher.ts';
import { Connection } from '../../../src/stores/sqlite/connection.ts';
import { writeRecords } from '../../../src/stores/sqlite/records.ts';
import { SqliteUserStore } from '../../../src/stores/sqlite/user.store.ts';
import { mulberry32, one } from '../random.ts';

const DAY_MS = 86_400_000;
/** Records per transaction: ~11 commits (fsyncs) for a million; smaller batches rewrite the id index's pages more often. */
const BATCH = 100_000;
/** One record of another user after every this many of the heavy user's. */
const OTHERS_EVERY = 10;
const OTHER_USERS = 4;
/** What the records say was searched (the search service writes `search_schools:<query>`). */
const QUERIES = [
  'harvard',
  'ecole montreal',
  'state university',
  'community college',
  'saint',
  'institute of technology',
  'uc',
  'mit',
  'school of art',
  'lakeview high',
];

export interface Account {
  readonly email: string;
  readonly password: string;
  readonly userId: string;
}

export interface Seeded {
  readonly user: Account;
  readonly others: number;
  /** Records of the heavy user, and of everyone. */
  readonly userRecords: number;
  readonly allRecords: number;
  readonly days: number;
  readonly seconds: number;
  readonly fileBytes: number;
  /** The cursor of the last page: the record just before the 25 oldest (newest-first position total - 26). */
  readonly lastPageCursor: string;
  /** The ids of the 25 oldest records, newest first: what the last page must hold. */
  readonly lastPageIds: readonly string[];
  /** The id of the newest record: what the first page starts with. */
  readonly newestId: string;
}

export interface SeedOptions {
  readonly path: string;
  readonly records: number;
  readonly days: number;
  readonly seed: number;
  /** The argon2 cost the server is configured with (its hasher makes the accounts' hashes). */
  readonly argon2: Config['argon2'];
}

export async function seedStore(options: SeedOptions): Promise<Seeded> {
  const started = performance.now();
  const rng = mulberry32(options.seed);
  const connection = await Connection.open({ path: options.path });
  let user: Account;
  let written = 0;
  try {
    // This connection's page cache only (256 MiB, not SQLite's 2 MiB): each record lands on a
    // random page of the id index (random UUIDs, as the API writes), and with pages read back
    // from the OS at every insert a million records took 35 s here instead of 16-24 s. The
    // server opens its own connection, with the defaults.
    await connection.write(() => connection.db.exec('PRAGMA cache_size = -262144'));
    const users = new SqliteUserStore(connection);
    const hasher = new Argon2Hasher(options.argon2, 1);
    const now = Date.now();
    const createdAt = new Date(now - (options.days + 1) * DAY_MS);
    const account = async (email: string): Promise<Account> => {
      const password = `history-bench-${randomUUID()}`;
      const userId = randomUUID();
      await users.create({
        id: userId,
        email,
        passwordHash: await hasher.hash(password),
        createdAt,
        passwordVersion: 0,
        keysFromVersion: 0,
      });
      return { email, password, userId };
    };
    user = await account('history-heavy@example.com');
    const others: Account[] = [];
    for (let i = 1; i <= OTHER_USERS; i++) others.push(await account(`history-other-${i}@example.com`));

    // Times spread evenly over `days` days up to a minute ago, each record jittered within its
    // slot: strictly in the order written, one every ~30 s at a million over 400 days.
    const all = options.records + Math.floor(options.records / OTHERS_EVERY);
    const end = now - 60_000;
    const step = (options.days * DAY_MS) / all;
    const start = end - options.days * DAY_MS;
    let batch: RequestRecord[] = [];
    const add = (userId: string) => {
      const position = written++;
      const timeMade = new Date(Math.floor(start + position * step + rng() * step));
      batch.push({
        id: randomUUID(),
        userId,
        requestMade: `search_schools:${one(rng, QUERIES)}`,
        timeMade,
        cost: SEARCH_COST,
      });
    };
    for (let i = 0; i < options.records; i++) {
      add(user.userId);
      if ((i + 1) % OTHERS_EVERY === 0) add(others[((i + 1) / OTHERS_EVERY) % others.length]!.userId);
      if (batch.length >= BATCH) {
        await writeRecords(connection, batch);
        batch = [];
      }
    }
    if (batch.length) await writeRecords(connection, batch);
  } finally {
    // Checkpoints the WAL into the file: the server starts on a file complete on its own.
    connection.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    user,
    others: OTHER_USERS,
    userRecords: options.records,
    allRecords: written,
    days: options.days,
    seconds,
    fileBytes: statSync(options.path).size,
    ...readEnds(options.path, user.userId),
  };
}

/** The newest record, and the oldest 26 (the last page and the record before it), read from the file. */
function readEnds(path: string, userId: string): Pick<Seeded, 'lastPageCursor' | 'lastPageIds' | 'newestId'> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const newest = db
      .prepare('SELECT id FROM api_requests WHERE user_id = ? ORDER BY time_made DESC, id DESC LIMIT 1')
      .get(userId) as { id: string };
    // The history's order reversed: the oldest first, read backwards along the same index.
    const oldest = db
      .prepare('SELECT id, time_made FROM api_requests WHERE user_id = ? ORDER BY time_made ASC, id ASC LIMIT 26')
      .all(userId) as unknown as Array<{ id: string; time_made: string }>;
    if (oldest.length < 26) throw new Error(`the user has ${oldest.length} records: the last page needs at least 26`);
    const before = oldest[25]!;
    return {
      newestId: newest.id,
      lastPageCursor: encodeCursor({ timeMade: new Date(before.time_made), id: before.id }),
      lastPageIds: oldest
        .slice(0, 25)
        .reverse()
        .map((r) => r.id),
    };
  } finally {
    db.close();
  }
}
