// The server under soak, as an operator runs it: the accounts made with the command line
// (`school-search user create`) on a fresh store, then `node src/main.ts` as a child process
// (production mode: no demo user, no response validation; rate limits off), its JSON log lines
// read from stdout, its memory read from /proc, and SIGTERM at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SERVER_NODE_FLAGS } from '../../src/server-flags.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

export interface SoakUser {
  readonly email: string;
  readonly password: string;
  readonly userId: string;
}

/** The environment of the server and the command line: the same store, production settings. */
export function serverEnv(databasePath: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_PATH: databasePath,
    // The soak measures the embedded store; a MONGODB_URI in the caller's environment must not switch it.
    MONGODB_URI: '',
    // Info is the shipped default, and the "listening" line (with the URL) is logged at info.
    LOG_LEVEL: 'info',
    // The soak is one client sending thousands of requests a minute: rate limits off (0 = off).
    RATE_LIMIT_SEARCH: '0',
    RATE_LIMIT_LOGIN_PER_CLIENT: '0',
    RATE_LIMIT_LOGIN_PER_EMAIL: '0',
    RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS: '0',
    RATE_LIMIT_ACCOUNT: '0',
  };
}

/** Runs a child process to its end; rejects with its stderr when it exits non-zero. */
function run(args: readonly string[], env: NodeJS.ProcessEnv, stdin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr.trim()}`)),
    );
    child.stdin.end(stdin);
  });
}

/** `count` accounts, made by `school-search user create` (password on stdin), a few at a time. */
export async function createUsers(count: number, env: NodeJS.ProcessEnv): Promise<SoakUser[]> {
  const users: SoakUser[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const email = `soak-user-${String(i + 1).padStart(3, '0')}@example.com`;
      const password = `soak-password-${i + 1}-${Math.random().toString(36).slice(2)}`;
      const stdout = await run(['bin/school-search.js', 'user', 'create', '--email', email], env, `${password}\n`);
      users[i] = { email, password, userId: stdout.trim() };
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, count) }, worker));
  return users;
}

export interface LogCounts {
  lines: number;
  /** Access-log lines ("request"), by status. */
  readonly requests: Map<number, number>;
  /** Lines at warn or above, the first few kept whole. */
  warnings: number;
  errors: number;
  readonly samples: string[];
}

export interface Server {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: string;
  readonly seeded: number | undefined;
  readonly log: LogCounts;
  /** SIGTERM (by pid), then the exit code, or 'timeout' when it did not exit in `ms`. */
  stop(ms: number): Promise<number | null | 'timeout'>;
}

export async function startServer(env: NodeJS.ProcessEnv, startTimeoutMs = 120_000): Promise<Server> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'src/main.ts'], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: LogCounts = { lines: 0, requests: new Map(), warnings: 0, errors: 0, samples: [] };
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  // 'close', not 'exit': every line it wrote has been read by then.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let seeded: number | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not log "listening" within ${startTimeoutMs} ms`)),
      startTimeoutMs,
    );
    void exited.then((code) => reject(new Error(`the server exited with ${code} before listening: ${stderr.trim()}`)));
    child.once('error', reject);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      log.lines++;
      let entry: { level?: number; msg?: string; status?: number; url?: string; inserted?: number };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        log.errors++;
        if (log.samples.length < 5) log.samples.push(`(not JSON) ${line.slice(0, 300)}`);
        return;
      }
      if (entry.msg === 'request' && typeof entry.status === 'number') {
        log.requests.set(entry.status, (log.requests.get(entry.status) ?? 0) + 1);
      }
      if ((entry.level ?? 0) >= 40) {
        if ((entry.level ?? 0) >= 50) log.errors++;
        else log.warnings++;
        if (log.samples.length < 5) log.samples.push(line.slice(0, 500));
      }
      if (entry.msg === 'seed loaded') seeded = entry.inserted;
      if (entry.msg === 'listening' && entry.url) {
        clearTimeout(timer);
        resolve(entry.url);
      }
    });
  }).catch((error: unknown) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  });
  return {
    child,
    pid: child.pid!,
    url,
    seeded,
    log,
    async stop(ms) {
      if (child.exitCode !== null) return child.exitCode;
      process.kill(child.pid!, 'SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
      const result = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (result === 'timeout') child.kill('SIGKILL');
      return result;
    },
  };
}

/** The resident set of a process, in bytes, and its peak (VmHWM), from /proc/<pid>/status. */
export function readRss(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function readCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
