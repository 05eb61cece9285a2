// The README's start command, as a process: a new store is created and seeded, the demo user can
// log in, Harvard is found, and SIGTERM stops the server cleanly. On the embedded store always;
// with MONGODB_URI=… (a fresh database of the test's MongoDB) when the run has a MongoDB; and on
// FerretDB, which has no text index, start-up must fail at once and say why.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { createClient } from '../../generated/client/index.ts';
import { confirmSignUp, createToken, fetchSchoolSearch, getReadiness, signUp } from '../../generated/sdk.gen.ts';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/config.ts';
import { withDatabase } from '../../src/stores/mongodb/store.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { flavorOf, freshDatabaseName, mongoUriFromEnv } from '../support/mongodb.ts';

interface Started {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  /** Resolves with the URL once listening; rejects with stderr if the process exits first. */
  listening: Promise<string>;
  /** /health/ready as asked the moment the port accepted connections (logged before the seed and the index). */
  early: Promise<{ status: number; body: Record<string, unknown> }>;
}

function start(env: Record<string, string>): Started {
  const lines: Array<Record<string, unknown>> = [];
  const child = spawn(process.execPath, ['src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      PUBLIC_BASE_URL: 'https://api.example.org/',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      MONGODB_URI: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let accepting: (url: string) => void = () => undefined;
  const early = new Promise<string>((resolve) => (accepting = resolve)).then(async (url) => {
    const r = await fetch(`${url}/health/ready`);
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  });
  early.catch(() => undefined);
  const listening = new Promise<string>((resolve, reject) => {
    child.once('close', (code) =>
      reject(Object.assign(new Error(`exited with ${code} before listening`), { code, stderr })),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      if (String(entry['msg']).startsWith('accepting connections')) accepting(String(entry['url']));
      if (entry['msg'] === 'listening') resolve(String(entry['url']));
    });
  });
  return { child, lines, listening, early };
}

/** A MongoDB (not FerretDB) server for this run, if there is one. */
/** The schools of the committed seed (data/seed/schools.ndjson.gz), which a new store is seeded with. */
const SEED_SCHOOLS = gunzipSync(readFileSync(new URL('../../data/seed/schools.ndjson.gz', import.meta.url)))
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim() !== '').length;

const mongoUri = mongoUriFromEnv();
const realMongo = mongoUri && (await flavorOf(mongoUri)) === 'mongodb' ? mongoUri : undefined;

const stores: Array<
  [string, 'sqlite' | 'mongodb', (() => { env: Record<string, string>; cleanup(): Promise<void> }) | undefined]
> = [
  [
    'the embedded store',
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'school-search-main-'));
      return {
        env: { DATABASE_PATH: join(dir, 'store.db') },
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'MongoDB (MONGODB_URI)',
    'mongodb',
    realMongo
      ? () => {
          const database = freshDatabaseName();
          const uri = withDatabase(realMongo, database);
          return {
            env: { MONGODB_URI: uri },
            async cleanup() {
              const client = new MongoClient(uri);
              await client.db(database).dropDatabase();
              await client.close();
            },
          };
        }
      : undefined,
  ],
];

describe.each(stores)('npm start (src/main.ts) on %s', (_name, kind, prepare) => {
  let started: Started;
  let cleanup: () => Promise<void> = async () => {};
  let baseUrl: string;

  beforeAll(async () => {
    if (!prepare) return;
    const prepared = prepare();
    cleanup = prepared.cleanup;
    started = start(prepared.env);
    baseUrl = await started.listening;
  }, 120_000);

  afterAll(async () => {
    if (started && started.child.exitCode === null) started.child.kill('SIGKILL');
    await cleanup();
  });

  test('when started on a store that does not exist, then it seeds it and serves the demo user', async (ctx) => {
    ctx.skip(
      !prepare,
      'no MongoDB in this run: MONGODB_URI is not set to a MongoDB server (FerretDB cannot hold the text index)',
    );
    const seeded = started.lines.find((l) => l['msg'] === 'seed loaded');
    expect(seeded).toMatchObject({ inserted: SEED_SCHOOLS });
    // The port took connections before the seed was in and the index built: not ready, and why.
    expect(await started.early).toMatchObject({
      status: 503,
      body: { status: 503, detail: 'The search index is not built yet: the server is starting. Retry later.' },
    });
    const client = createClient({ baseUrl });
    expect((await getReadiness({ client })).data).toEqual({ status: 'ok', store: kind });
    const login = await createToken({ client, body: { email: DEMO_EMAIL, password: DEMO_PASSWORD } });
    expect(login.response!.status).toBe(200);
    const authed = createClient({ baseUrl, headers: { Authorization: `Bearer ${login.data!.token}` } });
    const search = await fetchSchoolSearch({ client: authed, query: { query: 'harvard' } });
    const first = search.data!.requestresult.schools[0]!;
    expect(first.schoolname).toBe('Harvard University');
    expect(first.image_url).toBe(`https://api.example.org/images/schools/${first.schoolid}.svg`);
  });

  test('when searching the real catalog, then a public school, a private school, a Canadian school and a college are each found, with a readable name, level, type and location', async (ctx) => {
    ctx.skip(!prepare, 'no MongoDB in this run');
    const client = createClient({ baseUrl });
    const login = await createToken({ client, body: { email: DEMO_EMAIL, password: DEMO_PASSWORD } });
    const authed = createClient({ baseUrl, headers: { Authorization: `Bearer ${login.data!.token}` } });
    const first = async (query: string, stateCode: string) => {
      const answer = await fetchSchoolSearch({ client: authed, query: { query, stateCode: stateCode as never } });
      expect(answer.response!.status).toBe(200);
      return answer.data!.requestresult.schools[0]!;
    };
    // A CCD school published ALL CAPS ("STUYVESANT HIGH SCHOOL", "NEW YORK"), located by EDGE.
    expect(await first('stuyvesant high school', 'NY')).toMatchObject({
      schoolname: 'Stuyvesant High School',
      city: 'New York',
      level: 'high',
      lowest_grade: '9',
      highest_grade: '12',
      type: 'public',
      address: expect.any(String),
      postal_code: expect.stringMatching(/^\d{5}/),
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    });
    // HIFLD: every name ALL CAPS in the file.
    expect(await first('phillips exeter', 'NH')).toMatchObject({
      schoolname: 'Phillips Exeter Academy',
      city: 'Exeter',
      // The layer's ZIP codes are numbers: its "3833" is Exeter's 03833.
      postal_code: '03833',
      level: 'high',
      type: 'private',
      latitude: expect.any(Number),
    });
    // ODEF, in French, typed without accents: shown with them.
    expect(await first('college jean de brebeuf', 'QC')).toMatchObject({
      schoolname: 'Collège Jean-de-Brébeuf',
      city: 'Montréal',
      stateprovince: 'QC',
      postal_code: 'H3T 1C1',
      latitude: expect.any(Number),
    });
    expect(await first('university of texas austin', 'TX')).toMatchObject({
      schoolname: 'The University of Texas at Austin',
      level: 'postsecondary',
      type: 'postsecondary',
      address: expect.any(String),
    });
  });

  test('when someone signs up with no SMTP_URL, then the e-mail and its link are in the log (the development outbox), and the link works', async (ctx) => {
    ctx.skip(!prepare, 'no MongoDB in this run');
    const client = createClient({ baseUrl });
    const email = `newcomer-${kind}@example.org`;
    expect((await signUp({ client, body: { email, password: 'newcomer-password-1' } })).response!.status).toBe(202);
    const logged = started.lines.find(
      (l) => (l['mail'] as { to?: string } | undefined)?.to === email && String(l['msg']).startsWith('e-mail not sent'),
    );
    const links = (logged?.['mail'] as { links: string[] } | undefined)?.links ?? [];
    expect(links).toEqual([expect.stringMatching(/^https:\/\/api\.example\.org\/dashboard#confirm\/ssl_[\w-]{43}$/)]);
    expect(String(logged!['msg'])).toContain(links[0]!);
    const token = links[0]!.split('#confirm/')[1]!;
    const confirmed = await confirmSignUp({ client, body: { token, password: 'newcomer-password-1' } });
    expect(confirmed.response!.status).toBe(200);
  });

  test('when sent SIGTERM, then it stops and exits 0', async (ctx) => {
    ctx.skip(!prepare, 'no MongoDB in this run');
    // 'close', not 'exit': the process may exit before its last lines are read from the pipe.
    const exited = new Promise<number | null>((resolve) => started.child.once('close', (code) => resolve(code)));
    started.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(started.lines.map((l) => l['msg'])).toContain('stopped');
  });
});

/** Whether a process of this id is alive (signal 0 checks without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The schools in the embedded store at `path`. */
async function schoolsIn(path: string): Promise<number> {
  const store = await SqliteStore.open({ path });
  try {
    return await store.schools.count();
  } finally {
    await store.close();
  }
}

/** The seed's import process, as the server logs it once it has started it. */
function seedProcess(started: Started): Promise<number> {
  return new Promise<number>((resolve) => {
    const look = () => {
      const line = started.lines.find((l) => String(l['msg']).startsWith('school catalog is empty'));
      if (line) resolve(Number(line['pid']));
      else setTimeout(look, 10);
    };
    look();
  });
}

describe('npm start on a fresh embedded store, its seed imported in a process of its own', () => {
  test('when sent SIGTERM while the seed is imported, then the import ends with it, nothing is half written, and it exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-main-'));
    try {
      const path = join(dir, 'store.db');
      const first = start({ DATABASE_PATH: path });
      first.listening.catch(() => undefined);
      const exited = new Promise<number | null>((resolve) => first.child.once('close', (code) => resolve(code)));
      const pid = await seedProcess(first);
      expect(alive(pid)).toBe(true);
      first.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
      const messages = first.lines.map((l) => l['msg']);
      expect(messages).toContain('stopped');
      expect(messages).not.toContain('seed loaded');
      // The import is one transaction: stopped before its commit, none of it is in the store.
      expect(await schoolsIn(path)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test('when the server is killed (SIGKILL) while the seed is imported, then the import process ends too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-main-'));
    try {
      const path = join(dir, 'store.db');
      const first = start({ DATABASE_PATH: path });
      first.listening.catch(() => undefined);
      const pid = await seedProcess(first);
      first.child.kill('SIGKILL');
      // Its IPC channel closes with the server: no import is left writing to the store, and
      // none of it was committed (an import left running would have committed it all).
      await expect.poll(() => alive(pid), { timeout: 30_000 }).toBe(false);
      expect(await schoolsIn(path)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test('when the seed file cannot be read, then it does not start: exit 1, saying why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-main-'));
    try {
      const missing = join(dir, 'no-such-seed.ndjson');
      const { listening } = start({ DATABASE_PATH: join(dir, 'store.db'), SEED_FILE: missing });
      const failure = (await listening.then(
        () => expect.unreachable('it started'),
        (error: unknown) => error,
      )) as { code: number; stderr: string };
      expect(failure.code).toBe(1);
      expect(failure.stderr).toContain('school-search: cannot start: the seed was not imported: ');
      expect(failure.stderr).toContain('no-such-seed.ndjson');
      expect(failure.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('npm start on a fresh embedded store, stopped while it starts', () => {
  test('when sent SIGTERM while the index is being built, then it stops and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'school-search-main-'));
    try {
      const first = start({ DATABASE_PATH: join(dir, 'store.db') });
      first.listening.catch(() => undefined);
      const exited = new Promise<number | null>((resolve) => first.child.once('close', (code) => resolve(code)));
      // The seed is in: the index's build starts now, and takes seconds.
      await new Promise<void>((resolve) =>
        first.child.stdout!.on('data', (chunk: Buffer) => void (chunk.includes('"seed loaded"') && resolve())),
      );
      first.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const messages = first.lines.map((l) => l['msg']);
      expect(messages).toContain('stopped');
      expect(messages).not.toContain('listening');
      expect(messages).not.toContain('search index built');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('npm start with MONGODB_URI naming a server that refuses the text index (FerretDB v1)', () => {
  const ferretdb = inject('ferretdbUri');

  test('then it does not start: exit 1, naming the refused indexes', async (ctx) => {
    ctx.skip(!ferretdb, 'FerretDB is not installed (npm run ferretdb:setup)');
    const uri = withDatabase(ferretdb, freshDatabaseName());
    const { listening } = start({ MONGODB_URI: uri });
    const failure = (await listening.then(
      () => expect.unreachable('it started'),
      (error: unknown) => error,
    )) as { code: number; stderr: string };
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(
      /^school-search: cannot start: MongoDB refused indexes: schools\.schools_tokens_text \(.+\); tokens\.tokens_dead_ttl \(.+\)\n$/,
    );
  });
});
