// The parent's side of the server under load (server.ts runs in a child process of its own, so
// that neither the bench nor the load generator shares its event loop or its memory): forks it,
// and asks it over the IPC channel for what only it can measure (its event-loop delay, its RSS).
import { fork, type ChildProcess } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '../../src/server-flags.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SearchRequest } from '../../src/domain/search/engine.port.ts';

/** What the server says when it listens. */
export interface Ready {
  readonly type: 'ready';
  readonly url: string;
  readonly token: string;
  /** A publishable key of the searching account for the page's origin (page.ts), its budgets the contract's ceilings. */
  readonly publishableKey: string;
  /** The account of the login loops (not the searching one: a login revokes its user's oldest token beyond 100). */
  readonly login: { readonly email: string; readonly password: string };
  readonly schools: number;
  /** engine.start(): reading the catalog and building the index. */
  readonly indexMs: number;
  readonly memory: NodeJS.MemoryUsage;
  /** VmHWM when ready, bytes: the start-up's peak (the catalog read, the index build). */
  readonly vmHwm: number;
}

/** The server's figures of one scenario (from start to end). */
export interface ScenarioServerFigures {
  /** Event-loop delay (monitorEventLoopDelay, resolution 1 ms), ms. */
  readonly eld: { readonly p50: number; readonly p99: number; readonly max: number; readonly mean: number };
  /** Highest RSS sampled (every 100 ms) during the scenario, bytes. */
  readonly rssPeak: number;
  /** process.memoryUsage() of that sample: what the V8 heap held then. */
  readonly atPeak: NodeJS.MemoryUsage;
  readonly rssEnd: number;
  /** The process's lifetime peak RSS (VmHWM) at the scenario's end, bytes (0 where there is no /proc). */
  readonly vmHwm: number;
  /** CPU time over the scenario, µs: the main thread's (the event loop) and the whole process's (GC helpers, the record writer, the thread pool). */
  readonly cpuUs: { readonly main: number; readonly process: number };
}

export interface ProbeFigures {
  readonly queries: number;
  /** Each query's first search, after the load (the words' sets are cached by then). */
  readonly first: { readonly p50: number; readonly p99: number; readonly max: number };
  /** The same queries again. */
  readonly again: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly medianMatches: number;
  readonly maxMatches: number;
}

export interface ProbeResult {
  readonly classes: Record<string, ProbeFigures>;
  /** One request-log append (a metered search's write, fsync'd): p50 and p99 of 200, ms. */
  readonly append: { readonly p50: number; readonly p99: number };
}

export type Request =
  /** profile: write the CPU profile of the scenario (main thread) to this file at its end. */
  | { readonly type: 'start'; readonly profile?: string | undefined }
  | { readonly type: 'end' }
  | { readonly type: 'drain' }
  | { readonly type: 'probe'; readonly queries: Record<string, SearchRequest[]> }
  | { readonly type: 'memory' }
  | { readonly type: 'stop' };

export interface Replies {
  start: Record<string, never>;
  end: ScenarioServerFigures;
  /** ms until no request was in flight and the event loop had been calm for 100 ms. */
  drain: { readonly ms: number };
  probe: ProbeResult;
  /** Now, and the lifetime peak (getrusage maxRSS: the index build included). */
  memory: {
    readonly memory: NodeJS.MemoryUsage;
    readonly maxRss: number;
    /** VmHWM of /proc/self/status, bytes: the peak RSS of the process's whole life (0 off Linux). */
    readonly vmHwm: number;
    /** V8's heap spaces: committed and used bytes (what the RSS holds of the heap). */
    readonly spaces: Record<string, { readonly committed: number; readonly used: number }>;
  };
  stop: Record<string, never>;
}

export interface BenchServer {
  readonly pid: number;
  readonly ready: Ready;
  call<T extends Request['type']>(request: Extract<Request, { type: T }>): Promise<Replies[T]>;
  /** The stop request, then the exit; SIGKILL after `ms`. */
  stop(ms?: number): Promise<void>;
  kill(): void;
}

/** The server's environment: production settings on a fresh SQLite store, as the soak runs it. */
export function serverEnv(databasePath: string, logFile: string): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BENCH_')));
  return {
    ...inherited,
    NODE_ENV: 'production',
    DATABASE_PATH: databasePath,
    // A MONGODB_URI in the caller's environment must not switch the store.
    MONGODB_URI: '',
    SEED_WHEN_EMPTY: 'false',
    DEMO_USER: 'false',
    LOG_LEVEL: 'info',
    // The page scenario's publishable key spends its own budgets, rate limits off or not: a
    // minute's and a day's at the contract's ceilings (a key's minute is at most the account's
    // search quota, unbounded when that is off; page.ts).
    RATE_LIMIT_SEARCH: '0',
    PUBLISHABLE_SEARCHES_PER_DAY_MAX: '100000000',
    // argon2's 19 MiB buffers are unmapped on free instead of staying in glibc's arenas (scripts/soak/memory.ts).
    MALLOC_MMAP_THRESHOLD_: '131072',
    BENCH_LOG_FILE: logFile,
  };
}

/** `script`: the bench server of another checkout (side-by-side.ts compares two); this one's by default. */
export async function startServer(
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[] = [],
  script = fileURLToPath(new URL('./server.ts', import.meta.url)),
): Promise<BenchServer> {
  const child: ChildProcess = fork(script, [], {
    env,
    // The flags `npm start` runs the server with: the bench measures the server as deployed.
    execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS, ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (reply: unknown) => void>();
  let nextId = 1;
  let exited: ((code: number | null) => void) | undefined;
  const exit = new Promise<number | null>((resolve) => (exited = resolve));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.on('message', (m: { id?: number; type?: string }) => {
      if (m.type === 'ready') resolve(m as Ready);
      else if (m.id !== undefined) {
        waiting.get(m.id)?.(m);
        waiting.delete(m.id);
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      exited?.(code);
      reject(new Error(`the bench server exited (${signal ?? `exit ${code}`}) before it was ready`));
      for (const settle of waiting.values()) settle({ error: `the bench server exited (${signal ?? `exit ${code}`})` });
    });
  });
  const call = <T extends Request['type']>(request: Extract<Request, { type: T }>): Promise<Replies[T]> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (reply) => {
        const error = (reply as { error?: string }).error;
        if (error) reject(new Error(`bench server, ${request.type}: ${error}`));
        else resolve(reply as Replies[T]);
      });
      child.send({ ...request, id });
    });
  return {
    pid: child.pid!,
    ready,
    call,
    async stop(ms = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      await call({ type: 'stop' }).catch(() => undefined);
      await exit;
      clearTimeout(timer);
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

export interface LogSummary {
  readonly lines: number;
  readonly warnings: number;
  readonly errors: number;
  /** The first lines at warn or above. */
  readonly samples: readonly string[];
}

/** What the server logged (pino's JSON lines): an error in it fails the run. */
export function readServerLog(file: string): LogSummary {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No log at all: nothing logged.
  }
  let lines = 0;
  let warnings = 0;
  let errors = 0;
  const samples: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    lines++;
    const level = (JSON.parse(line) as { level?: number }).level ?? 0;
    if (level < 40) continue;
    if (level >= 50) errors++;
    else warnings++;
    if (samples.length < 3) samples.push(line.slice(0, 300));
  }
  return { lines, warnings, errors, samples };
}
