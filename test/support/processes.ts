// Helpers for the fault tests: a real app on a real store file whose directory the test can take
// away, the real server and command line as child processes, and reading a user's whole history.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from '../../generated/client/index.ts';
import { createToken, fetchMyRequests, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { draftSchool, type SchoolInput } from '../../src/domain/catalog/school-draft.ts';
import type { Services } from '../../src/composition/services.ts';
import { startTestApp } from './app.ts';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** Three schools in the canonical NDJSON format: a fast seed for servers started as processes. */
export const SMALL_SEED = join(REPO, 'test/fixtures/schools.ndjson');

export const SCHOOLS: SchoolInput[] = [
  { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' },
  { schoolname: 'Lincoln University', city: 'Jefferson City', stateprovince: 'MO' },
  { schoolname: 'University of Texas at Austin', city: 'Austin', stateprovince: 'TX' },
];

export function drafts(inputs: readonly SchoolInput[]) {
  return inputs.map((input) => {
    const result = draftSchool(input);
    if (!result.ok) throw new Error(result.reason);
    return result.draft;
  });
}

/** A temporary directory, removed by `remove()`. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `school-search-faults-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * The server processes and temporary directories of a test, ended together in afterEach: servers
 * still running are killed (SIGKILL, by their ChildProcess), directories removed.
 */
export function testScope() {
  const servers: ServerProcess[] = [];
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  return {
    async serve(databasePath: string, env: Record<string, string> = {}): Promise<ServerProcess> {
      const server = await startServer(databasePath, env);
      servers.push(server);
      return server;
    },
    tempDir(prefix: string): ReturnType<typeof tempDir> {
      const dir = tempDir(prefix);
      dirs.push(dir);
      return dir;
    },
    end(): void {
      for (const server of servers.splice(0))
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      for (const dir of dirs.splice(0)) dir.remove();
    },
  };
}

export interface FaultApp {
  readonly baseUrl: string;
  /** The directory that holds the store file (and its -wal and -shm): tests rename or fill it. */
  readonly dataDir: string;
  readonly dbPath: string;
  readonly services: Services;
  client(token?: string): Client;
  /** A new user with a live token. */
  user(): Promise<{ client: Client; token: string; userId: string; email: string; password: string }>;
  close(): Promise<void>;
}

/**
 * The real app (createApp, response validation on) on a real SQLite store file in `dataDir`,
 * created and seeded here. `busyBudgetMs`: how long a write waits for a held lock (production: 5 s).
 */
export async function startFaultApp(options: { dataDir: string; busyBudgetMs?: number }): Promise<FaultApp> {
  const { dataDir } = options;
  mkdirSync(dataDir, { recursive: true });
  const app = await startTestApp({
    dataDir,
    ...(options.busyBudgetMs === undefined ? {} : { busyBudgetMs: options.busyBudgetMs }),
  });
  await app.seed(SCHOOLS);
  return {
    baseUrl: app.baseUrl,
    dataDir,
    dbPath: app.dbPath,
    services: app.services,
    client: (token?: string) => app.client(token ? { Authorization: `Bearer ${token}` } : {}),
    user: () => app.userClient(),
    close: () => app.close(),
  };
}

/** Every `tid` in the user's history, read page by page (limit 25, the maximum). */
export async function historyIds(client: Client): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += 25) {
    const page = await fetchMyRequests({ client, query: { offset, limit: 25 } });
    if (page.response?.status !== 200) throw new Error(`fetchMyRequests answered ${page.response?.status}`);
    for (const r of page.data!.requests) ids.add(r.tid);
    if (offset + 25 >= page.data!.total_count) return ids;
  }
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** The JSON log lines so far. */
  readonly lines: Array<Record<string, unknown>>;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when a log line with this `msg` appears. */
  logged(msg: string): Promise<Record<string, unknown>>;
}

/** How long a server may take to seed, index and listen on a loaded two-core machine before it is killed. */
const LISTEN_TIMEOUT_MS = 90_000;

/** `node src/main.ts` as operators start it, on `databasePath`, listening on a free loopback port. */
export async function startServer(databasePath: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: databasePath,
      // These tests are about the embedded store: a MONGODB_URI of the run must not pick MongoDB.
      MONGODB_URI: '',
      SEED_FILE: SMALL_SEED,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      RATE_LIMIT_SEARCH: '0',
      RATE_LIMIT_LOGIN_PER_CLIENT: '0',
      RATE_LIMIT_LOGIN_PER_EMAIL: '0',
      RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ msg: string; resolve: (line: Record<string, unknown>) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.msg === line['msg'])) waiter.resolve(line);
  });
  // 'close', not 'exit': the process may exit before its last lines are read from the pipe, and
  // a test reads `lines` once it has exited.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const logged = (msg: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const seen = lines.find((l) => l['msg'] === msg);
      if (seen) resolve(seen);
      else waiters.push({ msg, resolve });
    });
  let timer: NodeJS.Timeout | undefined;
  const listening = await Promise.race([
    logged('listening'),
    exited.then(({ code }) => {
      throw new Error(`the server exited with ${code} before listening: ${stderr}`);
    }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the server did not listen within ${LISTEN_TIMEOUT_MS} ms: ${stderr}`));
      }, LISTEN_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  return { child, baseUrl: String(listening['url']), lines, exited, logged };
}

/** Searches from `connections` concurrent clients until stopped; collects what they were shown. */
export function searchLoad(client: Client, connections: number) {
  const tids: string[] = [];
  const statuses: number[] = [];
  let networkErrors = 0;
  let stopped = false;
  const loops = Array.from({ length: connections }, async (_, i) => {
    for (let n = 0; !stopped; n++) {
      try {
        const r = await fetchSchoolSearch({
          client,
          query: { query: ['harv', 'mass', 'ecole', 'mount'][(i + n) % 4]! },
        });
        if (r.response!.status === 200) tids.push(r.data!.apirequest.tid);
        else statuses.push(r.response!.status);
      } catch {
        // Refused or closed: the server is going away. The request was not answered.
        networkErrors++;
        await sleep(5);
      }
    }
  });
  return {
    tids,
    statuses,
    get networkErrors() {
      return networkErrors;
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Logs in; returns the token and a client that sends it. */
export async function login(
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ client: Client; token: string }> {
  const answer = await createToken({ client: createClient({ baseUrl }), body: { email, password } });
  if (answer.response?.status !== 200) throw new Error(`login answered ${answer.response?.status}`);
  const token = answer.data!.token;
  return { token, client: createClient({ baseUrl, headers: { Authorization: `Bearer ${token}` } }) };
}

export const DEMO = { email: 'demo@example.com', password: 'demo-password-123' } as const;

export function demoLogin(baseUrl: string): Promise<{ client: Client; token: string }> {
  return login(baseUrl, DEMO.email, DEMO.password);
}

/**
 * Mounts a size-limited tmpfs on `dir` (a real file system that runs full), or returns false
 * where mounting is not allowed (not root, no CAP_SYS_ADMIN, not Linux).
 */
export function mountSmallDisk(dir: string, size: string): boolean {
  mkdirSync(dir, { recursive: true });
  if (process.platform !== 'linux') return false;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' }).status === 0;
}

export function unmount(dir: string): void {
  spawnSync('umount', [dir], { stdio: 'ignore' });
}
