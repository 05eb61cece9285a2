// Speed of the account routes for a user with a long history: `npm run bench:history [-- --records N ...]`.
//
// 1. Seeds a fresh embedded store in a temporary directory (scripts/bench/history/seed.ts): one
//    user with N request records (default 1,000,000) spread over ~400 days, and a few other users
//    with records of their own, written through the store's writeRecords in big transactions.
// 2. Starts the API on that file as an operator runs it (`node src/main.ts`, production settings,
//    rate limits off; scripts/soak/server.ts) and logs in as the user.
// 3. Measures each operation alone, sequentially, as one client (scripts/bench/history/measure.ts):
//    fetchMyData; the first page of fetchMyRequests; the deepest page `offset` reaches; the last
//    page (the oldest records) by `cursor`; fetchMyUsage over 30 and 366 days.
// 4. Prints p50, p99 and max per operation and the targets: fetchMyData and the first and last
//    pages under 50 ms at p99 (scripts/bench/history/report.ts).
//
// Exits 1 when an answer is not 2xx or not right, a target is missed, or the server logged an
// error. The temporary directory and the server process are gone at the end, also on failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config.ts';
import { fmt, mib, out } from '../format.ts';
import { measure, type OperationFigures } from './measure.ts';
import { historyOperations } from './operations.ts';
import { report } from './report.ts';
import { seedStore } from './seed.ts';
import { createClient, type Client } from '../../soak/http.ts';
import { readRss, serverEnv, startServer, type Server } from '../../soak/server.ts';
import { toolOptions } from '../../shared/options.ts';

const USAGE = `Usage: npm run bench:history -- [--records N] [--days D] [--samples S] [--warmup W] [--seed K]

  --records N   request records of the measured user (env BENCH_HISTORY_RECORDS, default 1000000, at least 10000)
  --days D      days the records are spread over, up to now (default 400)
  --samples S   measured requests per operation (default 300)
  --warmup W    requests per operation before the measured ones (default 30)
  --seed K      seed of the records' times and contents (default 1)
`;

interface Options {
  readonly records: number;
  readonly days: number;
  readonly samples: number;
  readonly warmup: number;
  readonly seed: number;
}

function readOptions(): Options {
  const { values, int } = toolOptions(USAGE, {
    records: { type: 'string' },
    days: { type: 'string' },
    samples: { type: 'string' },
    warmup: { type: 'string' },
    seed: { type: 'string' },
  });
  return {
    // The deepest page `offset` reaches ends at the 10,000th record.
    records: int('--records', values.records ?? process.env['BENCH_HISTORY_RECORDS'], 1_000_000, 10_000),
    days: int('--days', values.days, 400, 2),
    samples: int('--samples', values.samples, 300, 1),
    warmup: int('--warmup', values.warmup, 30, 0),
    seed: int('--seed', values.seed, 1, 0),
  };
}

async function main(): Promise<number> {
  const options = readOptions();
  const dir = mkdtempSync(join(tmpdir(), 'school-search-bench-history-'));
  let server: Server | undefined;
  let client: Client | undefined;
  // Whatever happens, the server process (by its pid) and the directory go.
  const cleanUp = () => {
    client?.close();
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      try {
        process.kill(server.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanUp();
    process.exit(130);
  });

  try {
    const loadBefore = loadavg()[0]!;
    out(
      `school-search history bench: node ${process.version}, ${cpus().length} CPU (${cpus()[0]?.model.trim() ?? '?'}), 1-minute load average ${fmt(loadBefore, 2)}`,
    );
    out(
      `${options.records} records over ${options.days} days, ${options.warmup} warm-up + ${options.samples} measured requests per operation, seed ${options.seed}, work in ${dir}`,
    );

    const databasePath = join(dir, 'store.db');
    const env = {
      ...serverEnv(databasePath),
      // An empty catalog stays empty (the history does not need schools), and there is no demo user.
      SEED_WHEN_EMPTY: 'false',
      DEMO_USER: 'false',
      // Every record kept, whatever the caller's environment says: the history is the whole of it.
      REQUEST_RETENTION_DAYS: '',
    };
    process.stderr.write('  seeding...\n');
    const seeded = await seedStore({
      path: databasePath,
      records: options.records,
      days: options.days,
      seed: options.seed,
      argon2: loadConfig(env).argon2,
    });
    out(
      `seeding: ${seeded.allRecords} records (${seeded.userRecords} of the measured user, the rest of ${seeded.others} others) over ${seeded.days} days ` +
        `in ${fmt(seeded.seconds, 1)} s (${fmt(seeded.allRecords / seeded.seconds / 1000, 0)}k records/s); store file ${mib(seeded.fileBytes)}`,
    );

    const started = performance.now();
    server = await startServer(env);
    out(
      `server: pid ${server.pid}, ${server.url}, listening ${fmt((performance.now() - started) / 1000, 1)} s after spawn, RSS ${mib(readRss(server.pid)?.rss ?? Number.NaN)}`,
    );

    client = createClient(server.url, 1);
    const login = await client.send('POST', '/v1/auth', {
      json: { email: seeded.user.email, password: seeded.user.password },
    });
    if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.body.slice(0, 500)}`);
    const token = (JSON.parse(login.body) as { token: string }).token;

    const figures: OperationFigures[] = [];
    for (const operation of historyOperations(seeded)) {
      process.stderr.write(`  measuring ${operation.name}...\n`);
      figures.push(await measure(client, token, operation, options.warmup, options.samples));
    }
    const rss = readRss(server.pid);
    const exit = await server.stop(10_000);
    out(
      `server: RSS ${mib(rss?.rss ?? Number.NaN)} at the end (peak ${mib(rss?.hwm ?? Number.NaN)}); ${server.log.lines} log lines, ${server.log.warnings} warnings, ${server.log.errors} errors; stopped (${exit === 'timeout' ? 'killed after 10 s' : `exit ${exit}`})`,
    );

    const failures = report(figures, seeded, {
      loadBefore,
      loadAfter: loadavg()[0]!,
      serverLogErrors: server.log.errors,
      serverLogSamples: server.log.samples,
    });
    return failures.length ? 1 : 0;
  } finally {
    cleanUp();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`bench:history: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
