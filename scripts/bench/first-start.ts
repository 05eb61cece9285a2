// `npm start` on a fresh clone, timed: `npm run bench:start [-- --database PATH]`.
//
// Starts the server as `npm start` does (the same Node flags, the default development settings,
// the demo user) on a fresh store (a new temporary DATABASE_PATH: the seed is imported at
// start-up), logs the demo user in and searches, retrying until the search answers 200. Prints
// the seconds from spawn to that first answer, and the server's peak RSS (VmHWM, start-up and
// seed import included) and its RSS then. With --database, starts on that store instead (no
// import when it holds schools): the start-up of an existing store.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/config.ts';
import { SERVER_NODE_FLAGS } from '../../src/server-flags.ts';
import { freePort } from '../shared/ports.ts';
import { toolOptions } from '../shared/options.ts';
import { fmt, mib, out } from './format.ts';

const USAGE = `Usage: npm run bench:start -- [--database PATH] [--query Q]

  --database PATH  start on this store (default: a fresh one in a temporary directory)
  --query Q        the search to send (default "lincoln high school")
`;

export const FIRST_SEARCH_LIMIT_S = 15;
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** VmHWM and VmRSS of a process, bytes (Linux). */
export function procMemory(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { hwm: kib('VmHWM'), rss: kib('VmRSS') };
}

async function firstSearch(url: string, query: string): Promise<number> {
  const login = await fetch(`${url}/v1/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
  });
  if (login.status !== 200) return login.status;
  const { token } = (await login.json()) as { token: string };
  const search = await fetch(`${url}/v1/fetchSchoolSearch?query=${encodeURIComponent(query)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await search.text();
  return search.status;
}

async function main(): Promise<number> {
  const { values } = toolOptions(USAGE, { database: { type: 'string' }, query: { type: 'string' } });
  const dir = mkdtempSync(join(tmpdir(), 'school-search-start-'));
  const database = values.database ?? join(dir, 'store.db');
  const query = values.query ?? 'lincoln high school';
  const port = await freePort();
  out(`1-minute load average before: ${fmt(loadavg()[0]!, 2)}`);
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'src/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(port), DATABASE_PATH: database, LOG_LEVEL: 'warn', MONGODB_URI: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    let status = 0;
    while (status !== 200) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (performance.now() - started > 120_000) throw new Error('no answer within 120 s');
      status = await firstSearch(url, query).catch(() => 0);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const memory = procMemory(child.pid!);
    out(
      `first search answered ${fmt(seconds, 2)} s after spawn (limit ${FIRST_SEARCH_LIMIT_S} s) on ${values.database ?? 'a fresh store'}; ` +
        `server peak RSS (VmHWM) ${mib(memory.hwm)} (${fmt(memory.hwm / 1e6, 0)} MB), RSS now ${mib(memory.rss)}`,
    );
    return seconds <= FIRST_SEARCH_LIMIT_S ? 0 : 1;
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
