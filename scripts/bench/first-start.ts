// `npm start` timed, three times on one store: `npm run bench:start [-- --database PATH]`.
//
// 1. a first start on a fresh store (a new temporary DATABASE_PATH: the seed is imported at
//    start-up, the index built and written to <DATABASE_PATH>.index);
// 2. a restart on that store, which reads the index from its file;
// 3. a restart with the file damaged (bytes flipped in its middle): the checksum refuses it, the
//    index is built again (and the file written again).
//
// Each start runs as `npm start` does (the same Node flags, the default development settings, the
// demo user). From spawn, it times when the port first accepts a TCP connection, when
// /health/ready first answers 200, the demo user's login once ready (argon2, at the production
// parameters) and the first search answered 200: the seconds from spawn to that answer are the
// figure a newcomer sees. A restart searches with the token the start before was given (a client
// keeps its token over a server restart) and times its login after that search. Also the server's peak RSS (VmHWM, start-up, import and build included) and its
// RSS then. With --database, the three starts run on that store instead (the first one imports
// nothing when it holds schools). Exits 1 when a first search is later than its limit.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/config.ts';
import { SERVER_NODE_FLAGS } from '../../src/server-flags.ts';
import { freePort } from '../shared/ports.ts';
import { toolOptions } from '../shared/options.ts';
import { fmt, mib, out, table } from './format.ts';

const USAGE = `Usage: npm run bench:start -- [--database PATH] [--query Q]

  --database PATH  the store to start on (default: a fresh one in a temporary directory)
  --query Q        the search to send (default "lincoln high school")
`;

/** The first search's limit, seconds: a start that builds (the figure before the index file), and one that reads the file. */
export const FIRST_SEARCH_LIMIT_S = 15;
export const FROM_FILE_LIMIT_S = 1;
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** How often the port, readiness and the search are tried while the server starts. */
const POLL_MS = 10;

/** VmHWM and VmRSS of a process, bytes (Linux). */
export function procMemory(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { hwm: kib('VmHWM'), rss: kib('VmRSS') };
}

interface StartFigures {
  readonly acceptedS: number;
  readonly readyS: number;
  readonly loginMs: number;
  readonly searchS: number;
  /** The token the search was sent with, for the next start. */
  readonly token: string;
  readonly hwm: number;
  readonly rss: number;
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Tries `attempt` every POLL_MS until it is true; the seconds since `started` when it was. */
async function firstTime(started: number, child: ChildProcess, attempt: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (performance.now() - started > 120_000) throw new Error('not within 120 s');
    if (await attempt().catch(() => false)) return (performance.now() - started) / 1000;
    await sleep(POLL_MS);
  }
}

async function timedStart(database: string, query: string, heldToken?: string): Promise<StartFigures> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'src/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(port), DATABASE_PATH: database, LOG_LEVEL: 'warn', MONGODB_URI: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const accepted = firstTime(started, child, () => canConnect(port));
    const ready = accepted.then(() =>
      firstTime(started, child, async () => {
        const r = await fetch(`${url}/health/ready`);
        await r.text();
        return r.status === 200;
      }),
    );
    // Logged in once ready (the demo user exists only after the seed import: a login tried every
    // 10 ms before that spends the login limit, which is no start-up time). A restart searches
    // with the token the earlier start was given, as a client holding one does; its login is
    // timed after the search.
    const login = async (): Promise<{ token: string; ms: number }> => {
      const at = performance.now();
      const r = await fetch(`${url}/v1/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
      });
      if (r.status !== 200) throw new Error(`login answered ${r.status}: ${await r.text()}`);
      return { token: ((await r.json()) as { token: string }).token, ms: performance.now() - at };
    };
    await ready;
    let token = heldToken;
    let loginMs = 0;
    if (token === undefined) ({ token, ms: loginMs } = await login());
    const searchS = await firstTime(started, child, async () => {
      const search = await fetch(`${url}/v1/fetchSchoolSearch?query=${encodeURIComponent(query)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await search.text();
      return search.status === 200;
    });
    if (heldToken !== undefined) loginMs = (await login()).ms;
    const memory = procMemory(child.pid!);
    const [acceptedS, readyS] = [await accepted, await ready];
    // The index file is written after the index went live: stop once it is there (and whole).
    const file = `${database}.index`;
    const until = performance.now() + 30_000;
    while (performance.now() < until && !existsSync(file)) await sleep(50);
    const after = procMemory(child.pid!);
    child.kill('SIGTERM');
    await exited;
    return { acceptedS, readyS, loginMs, searchS, token, hwm: Math.max(memory.hwm, after.hwm || 0), rss: memory.rss };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Flips one byte in every 4 KiB of the middle third of the file: its arrays, past its header. */
function damage(path: string): void {
  const size = statSync(path).size;
  const fd = openSync(path, 'r+');
  try {
    const byte = Buffer.alloc(1);
    for (let at = Math.floor(size / 3); at < Math.floor((2 * size) / 3); at += 4096) {
      readSync(fd, byte, 0, 1, at);
      byte[0] = byte[0]! ^ 0xff;
      writeSync(fd, byte, 0, 1, at);
    }
  } finally {
    closeSync(fd);
  }
}

async function main(): Promise<number> {
  const { values } = toolOptions(USAGE, { database: { type: 'string' }, query: { type: 'string' } });
  const dir = mkdtempSync(join(tmpdir(), 'school-search-start-'));
  const database = values.database ?? join(dir, 'store.db');
  const query = values.query ?? 'lincoln high school';
  try {
    const runs: Array<[string, StartFigures, number, number]> = [];
    const steps: Array<[string, number, () => void]> = [
      [
        values.database ? 'first start on the store' : 'first start, fresh store (seed import, build, file write)',
        FIRST_SEARCH_LIMIT_S,
        () => rmSync(`${database}.index`, { force: true }),
      ],
      ['restart, valid index file', FROM_FILE_LIMIT_S, () => undefined],
      ['restart, damaged index file (rebuild)', FIRST_SEARCH_LIMIT_S, () => damage(`${database}.index`)],
    ];
    for (const [name, limit, prepare] of steps) {
      prepare();
      const load = loadavg()[0]!;
      runs.push([name, await timedStart(database, query, runs.at(-1)?.[1].token), limit, load]);
    }
    out(`store: ${values.database ?? 'a fresh one in a temporary directory'}; search "${query}"`);
    out(
      table(
        ['start', 'load', 'port open s', 'ready s', 'login ms', 'first search s', 'limit s', 'peak RSS', 'RSS then'],
        runs.map(([name, f, limit, load]) => [
          name,
          fmt(load, 2),
          fmt(f.acceptedS, 2),
          fmt(f.readyS, 2),
          fmt(f.loginMs, 0),
          fmt(f.searchS, 2),
          String(limit),
          `${mib(f.hwm)} (${fmt(f.hwm / 1e6, 0)} MB)`,
          mib(f.rss),
        ]),
        1,
      ),
    );
    out(
      'first search: seconds from spawn to the first search answered 200 (on the first start the login, argon2 at the production parameters, included; a restart searches with the token already held and logs in after); ready: /health/ready first 200; port open: the first TCP connection accepted.',
    );
    return runs.every(([, f, limit]) => f.searchS <= limit) ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
