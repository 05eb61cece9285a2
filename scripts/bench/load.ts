// The load generator: autocannon in a child process, so it never shares the server's event loop
// (the server runs in a process of its own too: server.ts). Talks to the parent over the fork IPC
// channel. Also the latency figures (percentiles).
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mulberry32, one, weighted } from './random.ts';

export interface LoadClass {
  readonly name: string;
  readonly weight: number;
  readonly paths: readonly string[];
  /** Another method than GET (a CORS preflight's OPTIONS). */
  readonly method?: 'OPTIONS' | undefined;
  /** Headers of this class's requests, besides the scenario's. */
  readonly headers?: Record<string, string> | undefined;
}

/** Concurrent login loops: each connection POSTs the credentials, waits for the answer, again. */
export interface LoginLoops {
  readonly connections: number;
  readonly email: string;
  readonly password: string;
}

export interface LoadSpec {
  readonly title: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly classes: readonly LoadClass[];
  /** Seconds of load before the measurement starts (JIT, caches, argon2's first buffers). */
  readonly warmup: number;
  /** Seconds measured. */
  readonly duration: number;
  readonly connections: number;
  readonly seed: number;
  readonly logins?: LoginLoops | undefined;
  /**
   * Send every path of every class once, in order (classes one after the other), then stop:
   * no warm-up, no duration. How the bench makes the server answer thousands of searches it has
   * never seen.
   */
  readonly once?: boolean | undefined;
  /**
   * Before the scenario, send every distinct path of its classes this many times, unmeasured:
   * what a server that has served these searches for a while has made of them (kept answers,
   * their compressed forms).
   */
  readonly prime?: number | undefined;
}

export interface Figures {
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly statusCodes: Record<string, number>;
  /** Bytes on the wire per answer, headers included, on average. */
  readonly bytes: number;
}

export interface LoadResult extends Figures {
  readonly title: string;
  /** Seconds measured (the warm-up not included). */
  readonly seconds: number;
  /** Socket errors and timeouts of the whole run, warm-up included (a failure either way). */
  readonly errors: number;
  readonly timeouts: number;
  readonly classes: Record<string, Figures>;
  readonly logins?: (Figures & { readonly errors: number }) | undefined;
  readonly generatorMaxRssKiB: number;
}

/** The child tells the parent when the warm-up ends and the measured window starts. */
export interface MeasuringMessage {
  readonly type: 'measuring';
}

// autocannon ships no types; this is the part of its API used here.
interface AutocannonRequest {
  path?: string;
  method?: string;
  headers?: Record<string, string>;
}
type Context = Record<string, unknown>;
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  timeout: number;
  headers: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  requests?: Array<{
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

/** Latency figures of a list of response times (ms) over `seconds`; `bytes`: all their answers'. */
export function figures(
  latencies: readonly number[],
  statusCodes: Record<string, number>,
  seconds: number,
  bytes = 0,
): Figures {
  const sorted = Float64Array.from(latencies).sort();
  return {
    bytes: sorted.length ? bytes / sorted.length : 0,
    requests: sorted.length,
    rps: seconds > 0 ? sorted.length / seconds : 0,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
    statusCodes,
  };
}

/** Response times and statuses of one stream of requests, kept only while `measuring()`. */
function recorder(measuring: () => boolean) {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const counted = {
    latencies,
    statusCodes,
    bytes: 0,
    record(status: number, ms: number, bytes = 0) {
      if (!measuring()) return;
      latencies.push(ms);
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      counted.bytes += bytes;
    },
  };
  return counted;
}

async function runLoad(spec: LoadSpec, onMeasuring: () => void): Promise<LoadResult> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const r = mulberry32(spec.seed);
  const pickClass = weighted(spec.classes.map((c) => [c, c.weight] as const));
  // One run of warm-up + measurement, so the load never pauses: responses are counted from the
  // moment the warm-up ends.
  let measuring = false;
  let measuredFrom = 0;
  const byClass = new Map(spec.classes.map((c) => [c.name, recorder(() => measuring)]));
  // autocannon calls a request's onResponse and then, synchronously, emits 'response' with the
  // latency: the class travels from one to the other through this variable.
  let answered = '';
  const duration = spec.warmup + spec.duration;
  // The classes interleaved: the i-th path of each class, then the (i+1)-th.
  const inOrder = Array.from({ length: Math.max(0, ...spec.classes.map((c) => c.paths.length)) }, (_, i) =>
    spec.classes.flatMap((c) => (i < c.paths.length ? [{ name: c.name, path: c.paths[i]! }] : [])),
  ).flat();
  let next = 0;
  const searches = autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.once ? { amount: inOrder.length } : { duration }),
    timeout: 10,
    headers: spec.headers,
    requests: [
      {
        // Called for every request, so every request can differ.
        setupRequest(request, context) {
          if (spec.once) {
            const { name, path } = inOrder[next++ % inOrder.length]!;
            context['class'] = name;
            request.path = path;
            return request;
          }
          const c = pickClass(r);
          context['class'] = c.name;
          request.path = one(r, c.paths);
          // autocannon reuses the request object: every request sets its method and headers.
          request.method = c.method ?? 'GET';
          request.headers = c.headers ? { ...spec.headers, ...c.headers } : spec.headers;
          return request;
        },
        onResponse(_status, _body, context) {
          answered = context['class'] as string;
        },
      },
    ],
  });
  searches.on('response', (_client, status, bytes, ms) => byClass.get(answered)?.record(status, ms, bytes));

  const logins = spec.logins ? recorder(() => measuring) : undefined;
  const loginRun = spec.logins
    ? autocannon({
        url: `${spec.url}/v1/auth`,
        connections: spec.logins.connections,
        duration,
        timeout: 10,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: spec.logins.email, password: spec.logins.password }),
      })
    : undefined;
  loginRun?.on('response', (_client, status, _bytes, ms) => logins!.record(status, ms));

  const startMeasuring = () => {
    measuring = true;
    measuredFrom = performance.now();
    onMeasuring();
  };
  // Every path once: every request counts, measured from the first (no response is in yet).
  if (spec.once) startMeasuring();
  const warm = spec.once ? undefined : setTimeout(startMeasuring, spec.warmup * 1000);
  const [result, loginResult] = await Promise.all([searches, loginRun]);
  clearTimeout(warm);
  const seconds = measuredFrom ? (performance.now() - measuredFrom) / 1000 : 0;

  const all: number[] = [];
  const allCodes: Record<string, number> = {};
  let allBytes = 0;
  for (const { latencies, statusCodes, bytes } of byClass.values()) {
    allBytes += bytes;
    for (const ms of latencies) all.push(ms);
    for (const [code, n] of Object.entries(statusCodes)) allCodes[code] = (allCodes[code] ?? 0) + n;
  }
  return {
    title: spec.title,
    seconds,
    errors: result.errors,
    timeouts: result.timeouts,
    ...figures(all, allCodes, seconds, allBytes),
    classes: Object.fromEntries(
      [...byClass].map(([name, c]) => [name, figures(c.latencies, c.statusCodes, seconds, c.bytes)]),
    ),
    logins:
      logins && loginResult
        ? { ...figures(logins.latencies, logins.statusCodes, seconds), errors: loginResult.errors }
        : undefined,
    generatorMaxRssKiB: process.resourceUsage().maxRSS,
  };
}

/** True in the child process runScenario forks: it must run loadWorker() and nothing else. */
export const isLoadWorker = (): boolean => process.env['BENCH_ROLE'] === 'load';

/** The child's side: receives one LoadSpec, runs it, sends the LoadResult back and disconnects. */
export async function loadWorker(): Promise<void> {
  const spec = await new Promise<LoadSpec>((resolve) => process.once('message', (m) => resolve(m as LoadSpec)));
  const result = await runLoad(spec, () => process.send!({ type: 'measuring' } satisfies MeasuringMessage));
  process.send!(result, () => process.disconnect());
}

/**
 * Runs one scenario in a fresh child process that runs `script` (the bench entry point, which forks
 * itself: it calls loadWorker() when isLoadWorker()). `onMeasuring` is called when the warm-up
 * is over.
 */
export function runScenario(
  script: string,
  spec: LoadSpec,
  onMeasuring: () => void,
  track: (child: ChildProcess | undefined) => void,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, BENCH_ROLE: 'load' }, stdio: 'inherit' });
    track(child);
    let result: LoadResult | undefined;
    child.on('message', (m: LoadResult | MeasuringMessage) => {
      if ('type' in m && m.type === 'measuring') onMeasuring();
      else result = m as LoadResult;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      track(undefined);
      if (result) resolve(result);
      else
        reject(new Error(`load generator for "${spec.title}" stopped (${signal ?? `exit ${code}`}) without a result`));
    });
    child.send(spec);
  });
}
