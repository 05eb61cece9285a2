// npm run test:clients — the official client libraries as their users get them, against the real
// app: the TypeScript package is built and packed with `npm pack`, installed from the tarball into
// a scratch project and run by a ten-line consumer under Node 20 and under Node 24 (ESM, and
// CommonJS through require(esm)), and its declarations type-check a typed consumer; the Python
// wheel is built, installed into a fresh virtualenv and its tests run (scripts/clients/python-test.sh).
//
// The app is started once, on a fresh embedded store (seeded, as `npm start` does), and every
// consumer logs in as a user of its own, so "one session after two searches" is a real check.
// The Python tests also get a second app, set up for what the first cannot show (ACCOUNTS_APP).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { browserMissing, launch } from './browser.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONSUMER = join(ROOT, 'scripts/clients/ts-consumer');
const PASSWORD = 'client-test-password-1';
const skipPython = process.argv.includes('--no-python');

/**
 * The Python tests' second app (clients/python/tests/conftest.py, `accounts`): each session is one
 * token long (TOKEN_TTL_SECONDS = SESSION_MAX_LIFETIME_SECONDS), so the client must renew its
 * token by logging in rather than rotating; it trusts X-Forwarded-For from loopback and stops
 * every client without a device proof at 3 failed logins per account, so tests can play
 * strangers guessing at an account from many addresses; it has open sign-up and its development
 * outbox, the log (a file the tests read the links from). No seed and no demo user: the tests
 * sign up accounts of their own.
 */
const ACCOUNTS_APP = {
  TOKEN_TTL_SECONDS: '3600',
  SESSION_MAX_LIFETIME_SECONDS: '3600',
  TRUST_PROXY: 'loopback',
  RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS: '3',
  // The tests' own sign-ups, resets and logins come from one address: room for a run or two.
  RATE_LIMIT_LOGIN_PER_CLIENT: '1000',
  RATE_LIMIT_MAIL_PER_CLIENT: '1000',
  SIGNUP: 'open',
  SMTP_URL: '',
  SEED_WHEN_EMPTY: 'false',
  DEMO_USER: 'false',
};

const work = mkdtempSync(join(tmpdir(), 'school-search-clients-'));
const servers: ChildProcess[] = [];
let failed = false;

try {
  const tarball = packTypeScriptClient();
  // Every consumer, the browser page and the Python suite log in from this one address within a
  // minute or two: the default 30 logins a minute per client was spent by a fast run (a 429 where
  // a test expects 401). The login quota itself is tested elsewhere (test/rate-limit).
  const url = await startApp('main', { RATE_LIMIT_LOGIN_PER_CLIENT: '1000' });
  const node20 = nodeTwenty();
  const project = scratchProject(tarball);

  for (const [label, node] of [
    ['Node 20', node20],
    ['Node 24', process.execPath],
  ] as const) {
    for (const file of ['consumer.mjs', 'consumer.cjs']) {
      const email = createUser(`${file.replace('.', '-')}-${label.replace(' ', '').toLowerCase()}@example.com`);
      run(`${file} on ${label}`, node, [join(project, file)], {
        cwd: project,
        env: { BASE_URL: url, EMAIL: email, PASSWORD },
      });
    }
  }
  run(
    'consumer.ts type-checks against the package',
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project],
    { cwd: project },
  );
  await inBrowser(project, url, createUser('browser@example.com'));

  if (skipPython) {
    step('Python client: skipped (--no-python)');
  } else {
    const email = createUser('python@example.com');
    const accountsUrl = await startApp('accounts', ACCOUNTS_APP);
    run(
      'Python client: wheel in a fresh virtualenv, its tests against the apps',
      'bash',
      [join(ROOT, 'scripts/clients/python-test.sh'), url],
      {
        cwd: ROOT,
        env: {
          SCHOOL_SEARCH_EMAIL: email,
          SCHOOL_SEARCH_PASSWORD: PASSWORD,
          SCHOOL_SEARCH_ACCOUNTS_BASE_URL: accountsUrl,
          SCHOOL_SEARCH_ACCOUNTS_LOG: logOf('accounts'),
          SCHOOL_SEARCH_REQUIRE: '1',
        },
      },
    );
  }
} catch (error) {
  failed = true;
  process.stderr.write(`test:clients: ${(error as Error).message}\n`);
} finally {
  for (const child of servers) await stopApp(child);
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

function step(message: string): void {
  process.stdout.write(`test:clients: ${message}\n`);
}

/** Runs one check; its output is shown, and a non-zero exit fails the whole run (after the others). */
function run(
  label: string,
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): void {
  step(label);
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    stdio: 'inherit',
    env: { ...process.env, ...options.env },
  });
  if (result.status !== 0) {
    failed = true;
    process.stderr.write(`test:clients: FAILED: ${label} (exit ${result.status ?? result.signal})\n`);
  }
}

/**
 * The installed package bundled for browsers by esbuild (a Node built-in in it fails the bundle),
 * served by a page on another loopback origin, logging in and searching in Chromium across CORS.
 */
async function inBrowser(project: string, url: string, email: string): Promise<void> {
  const missing = browserMissing();
  if (missing) return step(`browser: skipped: ${missing}`);
  const bundle = await build({
    absWorkingDir: project,
    entryPoints: ['browser.mjs'],
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'iife',
    write: false,
  });
  const script = bundle.outputFiles[0]!.text;
  step(
    `in Chromium: the package bundled for browsers (${(script.length / 1024).toFixed(0)} kB minified, with zod), from another origin`,
  );
  const consumer = JSON.stringify({ baseUrl: url, email, password: PASSWORD }).replace(/</g, '\\u003c');
  const page = `<!doctype html><title>consumer</title><script type="application/json" id="consumer">${consumer}</script><script src="/consumer.js"></script>`;
  // The bundle as a file of its own: inline, the HTML parser would turn the NUL in the contract's
  // "no control characters" pattern into U+FFFD.
  const origin = createServer((req, res) => {
    if (req.url === '/consumer.js')
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  }).listen(0, '127.0.0.1');
  await once(origin, 'listening');
  const browser = await launch();
  try {
    const tab = await browser.newPage();
    tab.on('pageerror', (error) => process.stderr.write(`test:clients: page error: ${error.message}\n`));
    await tab.goto(`http://localhost:${(origin.address() as { port: number }).port}/`);
    const page = await tab.evaluate(() => (window as unknown as { page: Promise<unknown> }).page);
    // The publishable key's calls are simple requests: no preflight reached the search before the
    // password client's first search (whose Authorization header needs one) sent its own.
    const searchPreflights = (atLeast = 0) => preflightsOf('/v1/fetchSchoolSearch', atLeast);
    const beforeBearer = await searchPreflights();
    const top = await tab.evaluate(() => (window as unknown as { bearerSearch: () => Promise<string> }).bearerSearch());
    const afterBearer = await searchPreflights(1);
    process.stdout.write(`${JSON.stringify({ browser: browser.version(), page, top, beforeBearer, afterBearer })}\n`);
    const expected = { top: 'Harvard University', refused: '/problems/publishable-key-not-allowed' };
    if (top !== 'Harvard University' || JSON.stringify(page) !== JSON.stringify(expected)) {
      failed = true;
      process.stderr.write('test:clients: FAILED: the browser consumer\n');
    }
    if (beforeBearer !== 0 || afterBearer < 1) {
      failed = true;
      process.stderr.write(
        `test:clients: FAILED: preflights of the search: ${beforeBearer} with the publishable key (0 expected), ${afterBearer} after the bearer search (1 expected)\n`,
      );
    }
  } finally {
    await browser.close();
    origin.close();
  }
}

/**
 * `npm pack` of clients/typescript, exactly as a user or a release would run it: the package's own
 * `prepack` builds dist/, so this also fails if packing alone would ship a package without code.
 */
function packTypeScriptClient(): string {
  step('packing clients/typescript (its prepack builds it)');
  rmSync(join(ROOT, 'clients/typescript/dist'), { recursive: true, force: true });
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
    cwd: join(ROOT, 'clients/typescript'),
    encoding: 'utf8',
  });
  const tarball = join(work, out.trim().split('\n').at(-1)!);
  if (!existsSync(tarball)) throw new Error(`npm pack did not write ${tarball}`);
  return tarball;
}

/** A project that knows nothing of this repository: the tarball and its own dependencies only. */
function scratchProject(tarball: string): string {
  const project = join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  for (const file of readdirSync(CONSUMER)) copyFileSync(join(CONSUMER, file), join(project, file));
  step(`npm install ${tarball.split('/').at(-1)} into a scratch project`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: project,
    stdio: 'inherit',
  });
  const installed = readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
  step(`installed: ${installed.join(', ')}`);
  return project;
}

/**
 * The machine's own Node 20 when it has one (these machines do; npm scripts put the project's
 * Node 24 first on PATH, so it is looked for in the rest of PATH), else node@20 from the npm
 * registry — the same way the project gets its Node 24.
 */
function nodeTwenty(): string {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (dir.includes('node_modules') || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (version.startsWith('v20.')) return candidate;
  }
  const dir = join(work, 'node20');
  mkdirSync(dir);
  step('no Node 20 on PATH: installing node@20 from the npm registry');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', dir, 'node@20'], {
    stdio: 'inherit',
  });
  return join(dir, 'node_modules/.bin/node');
}

/**
 * The OPTIONS requests (CORS preflights) to `path` in the main app's log; waits up to 2 s for at
 * least `atLeast` of them, since the log is written asynchronously.
 */
async function preflightsOf(path: string, atLeast = 0): Promise<number> {
  for (let waited = 0; ; waited += 100) {
    const count = readFileSync(logOf('main'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"method":"OPTIONS"') && line.includes(`"path":"${path}"`)).length;
    if (count >= atLeast || waited >= 2000) return count;
    await sleep(100);
  }
}

/** Where the app `name` writes its log (JSON lines). */
function logOf(name: string): string {
  return join(work, `${name}.log`);
}

/**
 * The README's start command on a fresh embedded store of its own (`<name>.db`), with `env` on
 * top; resolves with its URL. Its log goes to a file, not a pipe: this script waits in
 * spawnSync while the tests run, and a pipe nobody reads would fill and stall the app.
 */
async function startApp(name: string, env: Record<string, string> = {}): Promise<string> {
  const settings = Object.entries(env).filter(([, value]) => value !== '');
  step(
    `starting the ${name} app on a fresh embedded store${settings.length ? ` with ${settings.map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}`,
  );
  const log = openSync(logOf(name), 'w');
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      DATABASE_PATH: join(work, `${name}.db`),
      MONGODB_URI: '',
      ...env,
    },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  servers.push(child);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  for (;;) {
    for (const line of readFileSync(logOf(name), 'utf8').split('\n')) {
      if (!line.includes('"listening"')) continue;
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry['msg'] === 'listening') return String(entry['url']).replace(/\/$/, '');
    }
    if (exited !== undefined) throw new Error(`the ${name} app exited with ${exited} before listening`);
    await sleep(50);
  }
}

/**
 * Stops the app and waits for it: exiting first would leave it writing its log to a pipe no one
 * reads any more, never to finish. A graceful stop gets 10 s, then SIGKILL.
 */
async function stopApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** An account of its own for one consumer, made with the operator's CLI on the app's store. */
function createUser(email: string): string {
  execFileSync(process.execPath, [join(ROOT, 'bin/school-search.js'), 'user', 'create', '--email', email], {
    cwd: ROOT,
    input: `${PASSWORD}\n`,
    env: { ...process.env, DATABASE_PATH: join(work, 'main.db'), MONGODB_URI: '' },
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  return email;
}
