// The server under load, in a process of its own (forked by server-process.ts): the app composed
// by the steps src/main.ts runs (src/composition/server.ts: configuration from the environment,
// the store, the real argon2 hasher at the configured cost, the in-process index, the access log
// at info), except that response validation and rate limits are off and it listens on 127.0.0.1:0.
//
// It makes the bench's two accounts and answers the parent over the IPC channel: its event-loop
// delay and RSS per scenario, a drain check between scenarios, a probe of the engine alone.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { pino } from 'pino';
import { enableCompileCaches } from '../../src/compile-cache.ts';
import { loadConfig } from '../../src/config.ts';
import { PAGE_ORIGIN } from './page.ts';
import { RATE_LIMITS_OFF } from '../../src/http/middleware/rate-limit.ts';
import { listen } from '../../src/http/server.ts';
import { composeApp, composeServices, startServices } from '../../src/composition/server.ts';
import { probeAppend, probeEngine } from './engine-probe.ts';
import type { Ready, Replies, Request, ScenarioServerFigures } from './server-process.ts';

const SEARCHER = { email: 'bench-search@example.com', password: 'bench-search-password-1' };
const LOGIN = { email: 'bench-login@example.com', password: 'bench-login-password-1' };

// As src/main.ts starts.
enableCompileCaches();
const config = loadConfig();
const logger = pino(
  { level: config.logLevel },
  pino.destination({ dest: process.env['BENCH_LOG_FILE'] ?? 1, sync: false }),
);
const services = await composeServices(config, logger);
const { store } = services;
const { indexMs } = await startServices(services);

/** The bench's account: created, or the one an earlier run on this store made (a restart). */
async function account({ email, password }: { email: string; password: string }): Promise<{ userId: string }> {
  const existing = await store.users.findByEmail(email);
  return existing ? { userId: existing.id } : services.auth.createUser(email, password);
}
const searcher = await account(SEARCHER);
await account(LOGIN);
const token = (await services.auth.login(SEARCHER.email, SEARCHER.password)).value;

const app = composeApp(services, config, logger, { validateResponses: false, rateLimits: RATE_LIMITS_OFF });
const server: Server = await listen(app, 0, '127.0.0.1', logger);

// Requests the server has not finished answering: the drain check waits for none.
let inFlight = 0;
server.on('request', (_req, res) => {
  inFlight++;
  res.once('close', () => inFlight--);
});

const eld = monitorEventLoopDelay({ resolution: 1 });
eld.enable();
let atPeak = process.memoryUsage();
let sampler: NodeJS.Timeout | undefined;
let cpuAtStart = { main: process.threadCpuUsage(), process: process.cpuUsage() };
const cpuSince = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage) => to.user - from.user + (to.system - from.system);
const sampleRss = () => {
  const now = process.memoryUsage();
  if (now.rss > atPeak.rss) atPeak = now;
};

/** Until nothing is in flight and 10 timers of 10 ms in a row fired on time: the backlog is done. */
async function drained(): Promise<number> {
  const started = performance.now();
  let calm = 0;
  while (calm < 10 && performance.now() - started < 120_000) {
    const t = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
    calm = inFlight === 0 && performance.now() - t < 15 ? calm + 1 : 0;
  }
  return performance.now() - started - 100;
}

const ms = (ns: number) => ns / 1e6;

/** The process's peak RSS (VmHWM, Linux), bytes; 0 where there is no /proc. */
function vmHwm(): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kib ? Number(kib) * 1024 : 0;
  } catch {
    return 0;
  }
}

// The CPU profile of one scenario's measured window, when the parent asks for it (--cpu-prof).
let profiling: { session: Session; file: string } | undefined;
async function startProfile(file: string): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  profiling = { session, file };
}
async function stopProfile(): Promise<void> {
  if (!profiling) return;
  const { session, file } = profiling;
  profiling = undefined;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
}

async function answer(request: Request): Promise<Replies[Request['type']]> {
  switch (request.type) {
    case 'start':
      if (request.profile) await startProfile(request.profile);
      eld.reset();
      cpuAtStart = { main: process.threadCpuUsage(), process: process.cpuUsage() };
      atPeak = process.memoryUsage();
      sampler = setInterval(sampleRss, 100);
      return {};
    case 'end': {
      const cpuUs = {
        main: cpuSince(cpuAtStart.main, process.threadCpuUsage()),
        process: cpuSince(cpuAtStart.process, process.cpuUsage()),
      };
      clearInterval(sampler);
      sampleRss();
      const figures: ScenarioServerFigures = {
        cpuUs,
        eld: { p50: ms(eld.percentile(50)), p99: ms(eld.percentile(99)), max: ms(eld.max), mean: ms(eld.mean) },
        rssPeak: atPeak.rss,
        atPeak,
        rssEnd: process.memoryUsage.rss(),
        vmHwm: vmHwm(),
      };
      // After the figures: writing the profile blocks the loop.
      await stopProfile();
      return figures;
    }
    case 'drain':
      return { ms: await drained() };
    case 'probe':
      return {
        classes: await probeEngine(services.engine, request.queries),
        append: await probeAppend(store.requests, searcher.userId),
      };
    case 'memory':
      return {
        memory: process.memoryUsage(),
        maxRss: process.resourceUsage().maxRSS * 1024,
        vmHwm: vmHwm(),
        spaces: Object.fromEntries(
          getHeapSpaceStatistics().map((s) => [
            s.space_name,
            { committed: s.physical_space_size, used: s.space_used_size },
          ]),
        ),
      };
    case 'stop':
      return {};
  }
}

process.on('message', (message: Request & { id: number }) => {
  void answer(message).then(
    (reply) => {
      process.send!({ ...reply, id: message.id }, () => {
        if (message.type !== 'stop') return;
        // As src/main.ts stops: no new connections, the store closed, exit 0 (--cpu-prof writes its profile then).
        server.closeAllConnections();
        server.close(() => {
          services.engine.close();
          void store.close().then(() => process.exit(0));
        });
      });
    },
    (error: unknown) =>
      process.send!({ id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
/** The searching account's key for the page scenario, made as its owner makes one: POST /v1/publishable-keys. */
async function createPublishableKey(base: string): Promise<string> {
  const response = await fetch(`${base}/v1/publishable-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'bench page',
      origins: [PAGE_ORIGIN],
      searches_per_minute: 100_000,
      searches_per_day: 100_000_000,
      visitor_searches_per_minute: 100_000,
      current_password: SEARCHER.password,
    }),
  });
  const body = (await response.json()) as { token?: string };
  if (response.status !== 201 || !body.token)
    throw new Error(`createPublishableKey answered ${response.status}: ${JSON.stringify(body)}`);
  return body.token;
}

// The parent gone (killed, crashed): nobody will ask for a stop.
process.on('disconnect', () => process.exit(1));

const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const ready: Ready = {
  type: 'ready',
  url,
  token,
  publishableKey: await createPublishableKey(url),
  login: LOGIN,
  schools: await store.schools.count(),
  indexMs,
  memory: process.memoryUsage(),
  vmHwm: vmHwm(),
};
process.send!(ready);
