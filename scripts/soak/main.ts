// Soak test of the real server: `npm run soak [-- --seconds N --connections C --users U]`.
//
// On a fresh temporary store: makes U accounts with the command line, starts `node src/main.ts`
// as a child process (production mode, seeded with the seed's 149,311 schools, rate limits off,
// loopback only), logs every user in, then for N seconds keeps C keep-alive connections busy with
// realistic searches (from the seed), history and account reads and a few logins. Then it stops
// sending, reads every user's history back and stops the server with SIGTERM. It fails (exit 1)
// on any 5xx, network error or non-200 answer, any inconsistent answer, any lost or extra request
// record, memory that keeps growing after the warm-up (see scripts/soak/memory.ts for the
// thresholds), an error in the server's log, or a server that does not exit 0 on SIGTERM.
//
// The parts live in scripts/soak/: queries.ts (the searches), server.ts (the accounts, the server
// process, its log and memory), http.ts (the keep-alive client), load.ts (the load and its
// checks on the way), verify.ts (the records read back), memory.ts (the memory verdict) and
// report.ts (the tables and the checks).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolOptions } from '../shared/options.ts';
import { mulberry32 } from '../bench/random.ts';
import { fmt, mib, out } from '../bench/format.ts';
import { createClient, type Client } from './http.ts';
import { login, MIX, newStats, OPERATIONS, runLoad, type UserState } from './load.ts';
import { judgeMemory, MALLOC_ENV, type RssSample } from './memory.ts';
import { makeQueries, readSeed } from './queries.ts';
import { report } from './report.ts';
import { createUsers, PROJECT_ROOT, readCpuSeconds, readRss, serverEnv, startServer, type Server } from './server.ts';
import { verifyRecords } from './verify.ts';

const USAGE = `Usage: npm run soak -- [--seconds N] [--connections C] [--users U] [--seed K] [--malloc-defaults]

  --seconds N      seconds of load (env SOAK_SECONDS, default 60, at most 3000: tokens live 3600 s)
  --connections C  concurrent keep-alive connections (env SOAK_CONNECTIONS, default 16)
  --users U        accounts searching at the same time (env SOAK_USERS, default 16)
  --seed K         seed of the query set and of the request mix (default 1)
  --malloc-defaults
                   run the server with glibc's allocator as shipped; by default the soak fixes
                   MALLOC_MMAP_THRESHOLD_ so that argon2's 19 MiB buffers do not stay in the
                   process as random RSS steps (see scripts/soak/memory.ts)
`;

interface Options {
  readonly seconds: number;
  readonly connections: number;
  readonly users: number;
  readonly seed: number;
  readonly mallocDefaults: boolean;
}

function readOptions(): Options {
  const { values } = toolOptions(USAGE, {
    seconds: { type: 'string' },
    connections: { type: 'string' },
    users: { type: 'string' },
    seed: { type: 'string' },
    'malloc-defaults': { type: 'boolean' },
  });
  const int = (name: string, raw: string | undefined, fallback: number, min: number, max: number): number => {
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      process.stderr.write(`${name} must be an integer from ${min} to ${max}, not "${raw}".\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  return {
    seconds: int('--seconds', values.seconds ?? process.env['SOAK_SECONDS'], 60, 5, 3000),
    connections: int('--connections', values.connections ?? process.env['SOAK_CONNECTIONS'], 16, 1, 1000),
    users: int('--users', values.users ?? process.env['SOAK_USERS'], 16, 1, 1000),
    seed: int('--seed', values.seed, 1, 0, 2 ** 31),
    mallocDefaults: values['malloc-defaults'] ?? false,
  };
}

async function main(): Promise<number> {
  const options = readOptions();
  const dir = mkdtempSync(join(tmpdir(), 'school-search-soak-'));
  const env = serverEnv(join(dir, 'store.db'));
  let server: Server | undefined;
  let client: Client | undefined;
  process.once('SIGINT', () => {
    if (server?.child.exitCode === null) process.kill(server.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });

  try {
    out(
      `school-search soak: node ${process.version}, ${cpus().length} CPU (${cpus()[0]?.model.trim() ?? '?'}), 1-minute load average ${fmt(loadavg()[0]!, 2)}`,
    );
    out(
      `${options.seconds} s, ${options.connections} connections, ${options.users} users, seed ${options.seed}; mix: ` +
        OPERATIONS.map((op) => `${op} ${MIX[op]}%`).join(', '),
    );
    out(`store in ${dir}`);

    let t = performance.now();
    const accounts = await createUsers(options.users, env);
    out(
      `accounts: ${accounts.length} made with \`school-search user create\` in ${fmt((performance.now() - t) / 1000, 1)} s`,
    );

    t = performance.now();
    server = await startServer(options.mallocDefaults ? env : { ...env, ...MALLOC_ENV });
    const idle = readRss(server.pid);
    out(
      `server: pid ${server.pid}, ${server.url}, NODE_ENV=production, ` +
        `${options.mallocDefaults ? 'glibc malloc as shipped' : 'MALLOC_MMAP_THRESHOLD_=131072'}, ${server.seeded ?? 0} schools seeded, ` +
        `up in ${fmt((performance.now() - t) / 1000, 1)} s, VmRSS ${idle ? mib(idle.rss) : '?'} idle`,
    );

    client = createClient(server.url, options.connections);
    const stats = newStats();
    const users = await logInEveryone(client, stats, accounts, options.connections);
    const queries = makeQueries(
      readSeed(join(PROJECT_ROOT, 'data/seed/ipeds-hd2022.ndjson')),
      5000,
      mulberry32(options.seed),
    );
    const { cpu, memory } = await soak(server, { client, users, queries, stats }, options);

    process.stderr.write('  reading every history back...\n');
    const checks = await verifyRecords(client, users, options.connections);
    client.close();
    const requestsSent = client.sent();

    const exit = await server.stop(30_000);
    return report({ seconds: options.seconds, stats, users, checks, memory, log: server.log, requestsSent, exit, cpu })
      .length
      ? 1
      : 0;
  } finally {
    client?.close();
    if (server && server.child.exitCode === null) process.kill(server.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every user logs in first, as many at a time as there are connections: the RSS baseline is taken
 * with every libuv thread having hashed once.
 */
async function logInEveryone(
  client: Client,
  stats: ReturnType<typeof newStats>,
  accounts: Awaited<ReturnType<typeof createUsers>>,
  connections: number,
): Promise<UserState[]> {
  const users: UserState[] = accounts.map((a) => ({
    ...a,
    token: '',
    searches: 0,
    tids: new Set(),
    inFlight: 0,
    logins: 0,
  }));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(connections, users.length) }, async () => {
      for (let i = next++; i < users.length; i = next++) await login(client, stats, users[i]!);
    }),
  );
  const notIn = users.filter((u) => u.token === '');
  if (notIn.length > 0) throw new Error(`${notIn.length} users could not log in: ${stats.anomalies.join('; ')}`);
  return users;
}

/** The load for `--seconds`, with the server's memory sampled every second and the CPU both sides used. */
async function soak(
  server: Server,
  load: Pick<Parameters<typeof runLoad>[0], 'client' | 'users' | 'queries' | 'stats'>,
  options: Options,
) {
  process.stderr.write(`  soaking for ${options.seconds} s...\n`);
  const samples: RssSample[] = [];
  const loadStart = performance.now();
  const sample = () => {
    const m = readRss(server.pid);
    if (m) samples.push({ t: (performance.now() - loadStart) / 1000, rss: m.rss });
  };
  sample();
  const sampler = setInterval(sample, 1000);
  const serverCpuBefore = readCpuSeconds(server.pid);
  const clientCpuBefore = process.cpuUsage();
  try {
    await runLoad({ ...load, connections: options.connections, seconds: options.seconds, seed: options.seed });
  } finally {
    clearInterval(sampler);
  }
  sample();
  const serverCpuAfter = readCpuSeconds(server.pid);
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const cpu = {
    server: serverCpuBefore !== undefined && serverCpuAfter !== undefined ? serverCpuAfter - serverCpuBefore : NaN,
    client: (clientCpu.user + clientCpu.system) / 1e6,
  };
  const memory = judgeMemory(samples, options.seconds, readRss(server.pid)?.hwm ?? 0);

  return { cpu, memory };
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(
    `soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nsoak: FAIL\n`,
  );
  process.exitCode = 1;
}
