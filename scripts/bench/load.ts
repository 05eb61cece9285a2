// The load generator: autocannon in a child process, so it never shares the server's event loop
// and the RSS reported is the server's. Talks to the parent over the fork IPC channel. Also the
// latency figures (percentiles) and the wait for the server's backlog after a scenario.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mulberry32, one, weighted } from './random.ts';

export interface LoadClass {
  readonly name: string;
  readonly weight: number;
  readonly paths: readonly string[];
}

export interface LoadSpec {
  readonly title: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly classes: readonly LoadClass[];
  readonly duration: number;
  readonly connections: number;
  readonly seed: number;
}

export interface Figures {
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly statusCodes: Record<string, number>;
}

export interface LoadResult extends Figures {
  readonly title: string;
  readonly seconds: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly classes: Record<string, Figures>;
  readonly generatorMaxRssKiB: number;
}

// autocannon ships no types; this is the part of its API used here.
interface AutocannonRequest {
  path?: string;
}
type Context = Record<string, unknown>;
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  headers: Record<string, string>;
  requests: Array<{
    setupRequest: (request: AutocannonRequest, context: Context) => AutocannonRequest;
    onResponse: (status: number, body: string, context: Context) => void;
  }>;
}
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  stop(): void;
}
type Autocannon = (options: AutocannonOptions) => AutocannonInstance;

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function figures(latencies: number[], statusCodes: Record<string, number>, seconds: number): Figures {
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: sorted.length,
    rps: seconds > 0 ? sorted.length / seconds : 0,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
    statusCodes,
  };
}

async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const r = mulberry32(spec.seed);
  const pickClass = weighted(spec.classes.map((c) => [c, c.weight] as const));
  const latencies = new Map<string, number[]>(spec.classes.map((c) => [c.name, []]));
  const codes = new Map<string, Record<string, number>>(spec.classes.map((c) => [c.name, {}]));
  // autocannon calls a request's onResponse and then, synchronously, emits 'response' with the
  // latency: the class travels from one to the other through this variable.
  let answered = '';
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.duration,
    timeout: 10,
    headers: spec.headers,
    requests: [
      {
        // Called for every request, so every request can differ.
        setupRequest(request, context) {
          const c = pickClass(r);
          context['class'] = c.name;
          request.path = one(r, c.paths);
          return request;
        },
        onResponse(_status, _body, context) {
          answered = context['class'] as string;
        },
      },
    ],
  });
  instance.on('response', (_client, status, _bytes, ms) => {
    latencies.get(answered)?.push(ms);
    const c = codes.get(answered);
    if (c) c[status] = (c[status] ?? 0) + 1;
  });
  const result = await instance;
  const all: number[] = [];
  const allCodes: Record<string, number> = {};
  for (const [name, list] of latencies) {
    for (const ms of list) all.push(ms);
    for (const [code, n] of Object.entries(codes.get(name)!)) allCodes[code] = (allCodes[code] ?? 0) + n;
  }
  return {
    title: spec.title,
    seconds: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    ...figures(all, allCodes, result.duration),
    classes: Object.fromEntries(
      spec.classes.map((c) => [c.name, figures(latencies.get(c.name)!, codes.get(c.name)!, result.duration)]),
    ),
    generatorMaxRssKiB: process.resourceUsage().maxRSS,
  };
}

/** True in the child process runScenario forks: it must run loadWorker() and nothing else. */
export const isLoadWorker = (): boolean => process.env['BENCH_ROLE'] === 'load';

/** The child's side: receives one LoadSpec, runs it, sends the LoadResult back and disconnects. */
export async function loadWorker(): Promise<void> {
  const spec = await new Promise<LoadSpec>((resolve) => process.once('message', (m) => resolve(m as LoadSpec)));
  const result = await runLoad(spec);
  process.send!(result, () => process.disconnect());
}

/**
 * Runs one scenario in a fresh child process that runs `script` (the bench entry point, which forks
 * itself: it calls loadWorker() when isLoadWorker()).
 */
export function runScenario(
  script: string,
  spec: LoadSpec,
  track: (child: ChildProcess | undefined) => void,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, BENCH_ROLE: 'load' }, stdio: 'inherit' });
    track(child);
    let result: LoadResult | undefined;
    child.on('message', (m) => (result = m as LoadResult));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      track(undefined);
      if (result) resolve(result);
      else reject(new Error(`load generator for "${spec.title}" stopped (${signal ?? `exit ${code}`}) without a result`));
    });
    child.send(spec);
  });
}

/**
 * Waits until this process's event loop has been free for a while. When autocannon stops, the
 * server still owes the requests that were in flight; node:sqlite is synchronous, so with heavy
 * queries that backlog can take seconds, and it must not be billed to the next scenario.
 */
export async function drained(): Promise<number> {
  const started = performance.now();
  let calmSince = started;
  let calm = 0;
  while (calm < 10) {
    const t = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = performance.now();
    if (now - t < 15) calm++;
    else [calm, calmSince] = [0, now];
  }
  return calmSince - started;
}
