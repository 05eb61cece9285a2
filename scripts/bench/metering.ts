// npm run bench:metering — what metering a typeahead costs the embedded store: every keystroke
// through a publishable key is a request record (issue 40, item 3).
// `npm run bench:metering [-- --records N --days D --concurrency C]`
//
// 1. Sustained rate: N records (default 300,000) of one publishable key, over D days (default
//    10), each with its key, origin and search scope as a page's search has them, appended
//    through the store's RequestLog with `madeWith` (the token checked in the commit, as for a
//    search authenticated by a remembered token), C appends in flight (default 256: the group
//    commit's batches). Prints records/s from first append to last durable one.
// 2. Size: the store file's growth (after a WAL checkpoint) per record and per million records,
//    counters included; and the size of the same record as a MongoDB document (BSON, the fields
//    MongoRequestLog writes; its indexes come on top).
// 3. Retention: half the days purged (RequestLog.purgeBefore, as REQUEST_RETENTION_DAYS does
//    daily), then as many new records as went: the file stays within a few per cent of its
//    size, as SQLite reuses the freed pages (retention bounds the store). Prints deletions/s and the sizes.
// Everything runs in a temporary directory, removed at the end.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { BSON } from 'mongodb';
import type { TokenRecord, User } from '../../src/domain/accounts/accounts.ports.ts';
import { mintToken } from '../../src/domain/accounts/token.ts';
import type { RequestRecord } from '../../src/domain/metering/metering.ports.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '300000' },
    days: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '256' },
  },
});
const N = Number(values.records);
const DAYS = Number(values.days);
const CONCURRENCY = Number(values.concurrency);
const DAY_MS = 86_400_000;
const ORIGINS = ['https://www.example.org', 'https://apply.example.org', 'https://district.example.net'];
// Successive prefixes, as a person types them.
const NAMES = ['lincoln elementary', 'washington high school', 'st marys academy', 'riverside middle'];

const dir = mkdtempSync(join(tmpdir(), 'bench-metering-'));
const path = join(dir, 'store.db');
try {
  const store = await SqliteStore.open({ path });
  const start = Date.UTC(2026, 10, 1);
  const user: User = {
    id: randomUUID(),
    email: 'page-owner@example.org',
    passwordHash: '$argon2id$v=19$m=1024,t=1,p=1$c2FsdA$aGFzaA',
    createdAt: new Date(start - DAY_MS),
    passwordVersion: 0,
    keysFromVersion: 0,
  };
  await store.users.create(user);
  const key: TokenRecord = mintToken(
    user.id,
    'key',
    'school field',
    new Date(start - DAY_MS),
    3650 * DAY_MS,
    { passwordVersion: 0, authenticatedAt: new Date(start - DAY_MS) },
    { origins: ORIGINS, perMinute: 300, perDay: 100_000, perVisitorPerMinute: 60 },
  ).record;
  await store.tokens.insert(key);

  const recordAt = (i: number, base: number, days: number, count = N): RequestRecord => {
    const name = NAMES[i % NAMES.length]!;
    const typed = name.slice(0, 1 + (i % name.length));
    return {
      id: randomUUID(),
      userId: user.id,
      requestMade: `search_schools:${typed}`,
      timeMade: new Date(base + Math.floor((i / count) * days * DAY_MS)),
      cost: 1,
      search: { offset: 0, limit: 10, ...(i % 3 === 0 ? { stateCode: 'MA' } : {}) },
      keyId: key.id,
      origin: ORIGINS[i % ORIGINS.length]!,
    };
  };

  const fileBytes = () => {
    const db = new DatabaseSync(path);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    return statSync(path).size;
  };

  async function append(base: number, days: number, count = N): Promise<number> {
    const began = performance.now();
    let next = 0;
    const lane = async () => {
      while (next < count) {
        const i = next++;
        await store.requests.append(recordAt(i, base, days, count), key.id);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    return performance.now() - began;
  }

  const load = () => loadavg()[0]!.toFixed(2);
  const before = fileBytes();
  console.log(
    `bench:metering — ${N.toLocaleString('en')} records over ${DAYS} days, ${CONCURRENCY} in flight (load ${load()})`,
  );
  const ms = await append(start, DAYS);
  const after = fileBytes();
  const perRecord = (after - before) / N;
  const sample = recordAt(7, start, DAYS);
  const bson = BSON.calculateObjectSize({
    _id: sample.id,
    userId: sample.userId,
    requestMade: sample.requestMade,
    timeMade: sample.timeMade,
    cost: sample.cost,
    search: { stateCode: 'MA', offset: 0, limit: 10 },
    keyId: sample.keyId,
    origin: sample.origin,
    day: '2026-11-01',
  });
  const rate = (N / ms) * 1000;
  console.log(`  sustained          ${Math.round(rate).toLocaleString('en')} records/s (${(ms / 1000).toFixed(1)} s)`);
  console.log(`  SQLite file        ${(before / 1e6).toFixed(1)} MB → ${(after / 1e6).toFixed(1)} MB`);
  console.log(`  bytes per record   ${perRecord.toFixed(0)} (record, its indexes and counters)`);
  console.log(`  per million        ${((perRecord * 1e6) / 1e6).toFixed(0)} MB`);
  console.log(`  MongoDB document   ${bson} bytes BSON (before its indexes and compression)`);

  // Retention: the older half of the days goes, then as many records again come.
  const cut = new Date(start + Math.floor(DAYS / 2) * DAY_MS).toISOString().slice(0, 10);
  const purgeBegan = performance.now();
  const purged = await store.requests.purgeBefore(cut);
  const purgeMs = performance.now() - purgeBegan;
  const afterPurge = fileBytes();
  // The days that follow, as many records as went: the store holds N records again.
  await append(start + DAYS * DAY_MS, DAYS - Math.floor(DAYS / 2), purged);
  const refilled = fileBytes();
  console.log(
    `  retention          purged ${purged.toLocaleString('en')} records before ${cut} in ${(purgeMs / 1000).toFixed(1)} s (${Math.round((purged / purgeMs) * 1000).toLocaleString('en')}/s)`,
  );
  console.log(
    `  file after purge   ${(afterPurge / 1e6).toFixed(1)} MB; after as many new records ${(refilled / 1e6).toFixed(1)} MB (${(((refilled - after) / after) * 100).toFixed(1)} % beyond the first fill: freed pages reused)`,
  );
  console.log(`  load after         ${load()}`);
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
