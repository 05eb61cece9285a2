// Fuzzes every operation of the contract with schemathesis: `npm run fuzz [-- --deep] [-- ARGS]`.
//
// Starts the real server (src/main.ts) on a new temporary store (seeded with the real catalog,
// demo user present, response validation on, rate limits off so that the fuzzer explores
// behaviour instead of collecting 429s), then runs the pinned schemathesis from .venv/ against the
// contract the server serves at /openapi.json, with scripts/fuzz/schemathesis.toml (phases,
// checks, authentication: see the comments there). Exits with schemathesis' exit code: non-zero
// when it found anything. The server is killed at the end, also on failure and on Ctrl-C.
//
//   --deep         10x the example budget and a random seed (printed, so a finding can be
//                  replayed with `npm run fuzz -- --seed N`); for occasional runs, not CI.
//   anything else  passed on to `schemathesis run` (e.g. --seed N, --include-operation-id X).
//
// A second, short pass (not with --deep or extra arguments) runs against a server whose search
// quota is small, so that schemathesis also checks the 429 answers (status declared, Retry-After
// and the RateLimit headers, problem+json body) against the contract.
//
// Reports: reports/schemathesis/junit.xml and junit-throttled.xml (JUnit),
// reports/schemathesis/server.log and server-throttled.log (the server's log lines, where a
// 500's stack trace is); FUZZ_REPORT_DIR=DIR puts them elsewhere.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { withDatabase } from '../../src/stores/mongodb/store.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMATHESIS = join(ROOT, '.venv', 'bin', 'schemathesis');
const CONFIG = join(ROOT, 'scripts', 'fuzz', 'schemathesis.toml');
const HOOKS = join(ROOT, 'scripts', 'fuzz', 'hooks.py');
// FUZZ_REPORT_DIR: another directory, e.g. for a --deep run beside a default one.
const REPORTS = resolve(process.env['FUZZ_REPORT_DIR'] ?? join(ROOT, 'reports', 'schemathesis'));

/** A run of schemathesis against its own server. */
interface Pass {
  readonly name: string;
  readonly junit: string;
  readonly serverLog: string;
  /** Environment of the server beyond the common one. */
  readonly env: Record<string, string>;
  readonly args: readonly string[];
}

// 0 = that limiter off: the fuzzer explores behaviour instead of collecting 429s.
const LIMITS_OFF = {
  RATE_LIMIT_SEARCH: '0',
  RATE_LIMIT_LOGIN_PER_CLIENT: '0',
  RATE_LIMIT_LOGIN_PER_EMAIL: '0',
  RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS: '0',
  RATE_LIMIT_ACCOUNT: '0',
  RATE_LIMIT_MAIL_PER_EMAIL: '0',
  RATE_LIMIT_MAIL_PER_CLIENT: '0',
  RATE_LIMIT_LINK_PER_CLIENT: '0',
  RATE_LIMIT_LINK_PER_LINK: '0',
};

// The budget. The default run is part of `npm test` and CI: a fixed seed makes it reproducible
// (the same cases on every machine: schemathesis and its dependencies are pinned), and the
// example budget per operation and phase keeps it to about 3 minutes on an idle 2-vCPU machine.
// 900 gave 17,261 cases and 5 minutes once the contract had 22 operations, five of them checking
// a password with argon2 (185 s of the 296); 600 gives about 12,000. --deep: 9,000 per operation,
// about 45 minutes.
const SEED = 20261122;
const MAX_EXAMPLES = 600;
const DEEP_FACTOR = 15;

const args = process.argv.slice(2);
const deep = args.includes('--deep');
const passThrough = args.filter((a) => a !== '--deep');
const seedGiven = passThrough.some((a) => a === '--seed' || a.startsWith('--seed='));
const examplesGiven = passThrough.some((a) => a === '--max-examples' || a === '-n' || a.startsWith('--max-examples='));
const seed = deep ? randomInt(1, 2 ** 31) : SEED;

/**
 * With MONGODB_URI (the GitHub workflow's MongoDB job), each pass's server runs on a fresh
 * database of that server, dropped after the pass: the fuzzer then exercises the MongoDB store.
 */
const MONGODB_URI = process.env['MONGODB_URI'] || undefined;

let server: ChildProcess | undefined;
let fuzzer: ChildProcess | undefined;
let dir: string | undefined;

function cleanUp(): void {
  if (fuzzer?.pid !== undefined && fuzzer.exitCode === null && fuzzer.signalCode === null) fuzzer.kill('SIGTERM');
  if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    cleanUp();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

/** Installs the pinned schemathesis into .venv/ (idempotent: a no-op when it is there). */
function setUp(): void {
  const result = spawnSync('bash', [join(ROOT, 'scripts', 'fuzz', 'setup.sh')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`scripts/fuzz/setup.sh failed (exit ${result.status})`);
  if (!existsSync(SCHEMATHESIS)) throw new Error(`${SCHEMATHESIS} is missing after setup`);
}

/** Starts src/main.ts on port 0 and resolves with the URL from its "listening" log line. */
function startServer(workDir: string, pass: Pass): Promise<string> {
  const child = spawn(process.execPath, [join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(workDir, 'store.db'),
      MONGODB_URI: MONGODB_URI ? withDatabase(MONGODB_URI, `fuzz_${process.pid}_${pass.name}`) : '',
      // Development: the demo user exists and every response is validated against the contract,
      // so a response that breaks the contract is a 500 the fuzzer reports.
      NODE_ENV: 'development',
      VALIDATE_RESPONSES: 'true',
      // "listening" is an info line; every line goes to reports/schemathesis/server.log.
      LOG_LEVEL: 'info',
      ...pass.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  const log = createWriteStream(pass.serverLog);
  child.stderr!.pipe(log, { end: false });
  return new Promise<string>((resolvePromise, reject) => {
    let url: string | undefined;
    child.once('exit', (code, signal) => {
      if (url === undefined)
        reject(new Error(`the server exited (${code ?? signal}) before listening; see ${pass.serverLog}`));
    });
    // Read every line, also after "listening": a full pipe would block the server.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      log.write(`${line}\n`);
      if (url !== undefined) return;
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry['msg'] === 'listening') {
          url = String(entry['url']);
          resolvePromise(url);
        }
      } catch {
        // not a JSON log line: kept in the log file only
      }
    });
  });
}

function runSchemathesis(url: string, workDir: string, pass: Pass): Promise<number> {
  const runArgs = [
    '--config-file',
    CONFIG,
    'run',
    `${url}/openapi.json`,
    ...(seedGiven ? [] : ['--seed', String(seed)]),
    '--report',
    'junit',
    '--report-junit-path',
    pass.junit,
    ...pass.args,
  ];
  console.log(`$ ${relative(process.cwd(), SCHEMATHESIS) || SCHEMATHESIS} ${runArgs.map(quote).join(' ')}`);
  const child = spawn(SCHEMATHESIS, runArgs, {
    // Its working directory is the temporary one: anything schemathesis or hypothesis keeps on
    // disk between runs (.schemathesis/, .hypothesis/) goes away with it, so no run depends on an
    // earlier one.
    cwd: workDir,
    // Authentication: the demo user logs in through POST /v1/auth (scripts/fuzz/hooks.py).
    env: { ...process.env, SCHEMATHESIS_HOOKS: HOOKS },
    stdio: 'inherit',
  });
  fuzzer = child;
  return new Promise<number>((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
  });
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

const PASSES: Pass[] = [
  {
    name: 'every operation',
    junit: join(REPORTS, 'junit.xml'),
    serverLog: join(REPORTS, 'server.log'),
    env: LIMITS_OFF,
    args: [
      ...(examplesGiven ? [] : ['--max-examples', String(deep ? MAX_EXAMPLES * DEEP_FACTOR : MAX_EXAMPLES)]),
      ...passThrough,
    ],
  },
  // Searches beyond 20 a minute are 429s: schemathesis checks those answers against the contract.
  // (The login quotas stay off: the authentication hook logs in as the demo user.)
  ...(deep || passThrough.length > 0
    ? []
    : [
        {
          name: 'search over its quota',
          junit: join(REPORTS, 'junit-throttled.xml'),
          serverLog: join(REPORTS, 'server-throttled.log'),
          env: { ...LIMITS_OFF, RATE_LIMIT_SEARCH: '20' },
          args: ['--include-operation-id', 'fetchSchoolSearch', '--phases', 'fuzzing', '--max-examples', '150'],
        },
      ]),
];

async function runPass(pass: Pass): Promise<number> {
  rmSync(pass.junit, { force: true });
  dir = mkdtempSync(join(tmpdir(), 'school-search-fuzz-'));
  const started = Date.now();
  const url = await startServer(dir, pass);
  const store = MONGODB_URI ? `MongoDB database fuzz_${process.pid}_${pass.name}` : `store ${join(dir, 'store.db')}`;
  console.log(`fuzz (${pass.name}): server listening on ${url} (${store}, log ${relative(ROOT, pass.serverLog)})`);
  const code = await runSchemathesis(url, dir, pass);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `fuzz (${pass.name}): ${code === 0 ? 'no issues' : `schemathesis exited ${code}`} in ${seconds}s; JUnit report: ${resolve(pass.junit)}`,
  );
  if (code !== 0) console.log(`fuzz: the server's log (stack traces of 500s) is ${resolve(pass.serverLog)}`);
  cleanUp();
  if (MONGODB_URI) await dropDatabase(MONGODB_URI, `fuzz_${process.pid}_${pass.name}`);
  return code;
}

async function dropDatabase(uri: string, database: string): Promise<void> {
  const client = new MongoClient(uri);
  try {
    await client.db(database).dropDatabase();
  } finally {
    await client.close();
  }
}

async function main(): Promise<number> {
  setUp();
  mkdirSync(REPORTS, { recursive: true });
  if (deep && !seedGiven)
    console.log(`fuzz: --deep, seed ${seed} (replay with: npm run fuzz -- --deep --seed ${seed})`);
  for (const pass of PASSES) {
    const code = await runPass(pass);
    if (code !== 0) return code;
  }
  return 0;
}

main().then(
  (code) => {
    cleanUp();
    process.exit(code);
  },
  (error: unknown) => {
    console.error(`fuzz: ${error instanceof Error ? error.message : String(error)}`);
    cleanUp();
    process.exit(1);
  },
);
