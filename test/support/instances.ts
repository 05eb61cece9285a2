// Helpers for the multi-instance tests (issue 13): two API processes (`node src/main.ts`, as
// operators start them) on one store, seeded with the committed seed as `npm start` does, users
// made with the command line, and the store either a temporary embedded file or, when the run
// has a MongoDB server (MONGODB_URI), a fresh database on it.
import { afterAll, beforeAll } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { createClient, type Client } from '../../generated/client/index.ts';
import { createToken, fetchMyRequests } from '../../generated/sdk.gen.ts';
import type { ApiRequest } from '../../generated/types.gen.ts';
import { withDatabase } from '../../src/stores/mongodb/store.ts';
import { runCli } from './cli.ts';
import { REPO, startServer } from './processes.ts';
import { flavorOf, freshDatabaseName, mongoUriFromEnv } from './mongodb.ts';

/** The seed's 6,112 US colleges: what these servers load into an empty catalog (npm start loads all 149,311). */
export const REAL_SEED = join(REPO, 'data/seed/ipeds-hd2022.ndjson');
export const PASSWORD = 'correct-horse-battery-staple';

/** After SIGTERM in end(), how long a process may take before it is killed. */
const STOP_GRACE_MS = 10_000;

// ---------------------------------------------------------------------------------------------
// The stores the suite runs on

export interface SharedStore {
  /** The environment that points a server or the command line at this store. */
  readonly env: Record<string, string>;
  remove(): Promise<void>;
}

/**
 * [name, a factory for a fresh store, or why this store is skipped] for describe.each: the
 * embedded store always; MongoDB when MONGODB_URI names a MongoDB server. FerretDB (the run of
 * `npm run test:ferretdb`) cannot hold the text and TTL indexes that src/main.ts and the command
 * line create at open, so neither starts on it (test/main/start.test.ts).
 */
export async function sharedStores(): Promise<Array<[string, (() => SharedStore) | string]>> {
  const uri = mongoUriFromEnv();
  const flavor = uri ? await flavorOf(uri) : undefined;
  return [
    ['the embedded store', embeddedStore],
    [
      'MongoDB (MONGODB_URI)',
      uri && flavor === 'mongodb'
        ? () => mongoStore(uri)
        : uri
          ? 'FerretDB refuses the text and TTL indexes src/main.ts creates at open: the servers cannot start on it'
          : 'no MongoDB in this run (MONGODB_URI is not set)',
    ],
  ];
}

function embeddedStore(): SharedStore {
  const dir = mkdtempSync(join(tmpdir(), 'school-search-multi-'));
  return {
    // MONGODB_URI empty: the run's MongoDB, if any, must not be picked instead.
    env: { DATABASE_PATH: join(dir, 'store.db'), MONGODB_URI: '' },
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function mongoStore(serverUri: string): SharedStore {
  const database = freshDatabaseName();
  const uri = withDatabase(serverUri, database);
  return {
    env: { MONGODB_URI: uri },
    async remove() {
      const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Server processes

export interface Instance {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** The JSON log lines so far. */
  readonly lines: Array<Record<string, unknown>>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** A generated client for this instance, sending the token if given. */
  client(token?: string): Client;
  running(): boolean;
}

// Killed if the test process goes away without its afterAll (a crash, a worker torn down).
const alive = new Set<number>();
process.once('exit', () => {
  for (const pid of alive) killPid(pid, 'SIGKILL');
});

function killPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

/**
 * The server processes of one test file, stopped together in afterAll: SIGTERM, then SIGKILL
 * after a grace period, each by its pid.
 */
export function instances() {
  const started: Instance[] = [];
  return {
    async start(name: string, store: SharedStore, env: Record<string, string> = {}): Promise<Instance> {
      const instance = await startInstance(name, { ...store.env, ...env });
      started.push(instance);
      return instance;
    },
    /** A then B, one after the other: the first seeds the empty store, the second finds it seeded. */
    async startPair(store: SharedStore, env: Record<string, string> = {}): Promise<[Instance, Instance]> {
      const a = await this.start('A', store, env);
      const b = await this.start('B', store, env);
      return [a, b];
    },
    async end(): Promise<void> {
      await Promise.all(
        started.splice(0).map(async (instance) => {
          if (!instance.running()) return;
          killPid(instance.pid, 'SIGTERM');
          const timer = sleep(STOP_GRACE_MS, 'timeout' as const);
          if ((await Promise.race([instance.exited, timer])) === 'timeout') {
            killPid(instance.pid, 'SIGKILL');
            await instance.exited;
          }
        }),
      );
    },
  };
}

/** `node src/main.ts` as `npm start` runs it outside production (the real seed, responses validated), on the store `env` names. */
async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const server = await startServer(env['DATABASE_PATH'] ?? '', {
    SEED_FILE: REAL_SEED,
    SEED_WHEN_EMPTY: 'true',
    // The tests make their users with the command line.
    DEMO_USER: 'false',
    LOG_FORMAT: 'json',
    METRICS_PORT: '',
    METRICS_TOKEN: '',
    // The quotas a test is about come in env (startServer turns the others off).
    ...env,
  });
  const pid = server.child.pid!;
  alive.add(pid);
  let exitedYet = false;
  void server.exited.then(() => {
    exitedYet = true;
    alive.delete(pid);
  });
  return {
    name,
    pid,
    child: server.child,
    baseUrl: server.baseUrl,
    lines: server.lines,
    exited: server.exited,
    client: (token?: string) =>
      createClient({ baseUrl: server.baseUrl, headers: token ? { Authorization: `Bearer ${token}` } : {} }),
    running: () => !exitedYet,
  };
}

/** Every quota off, and every record kept: what the tests that are not about quotas run with. */
export const NO_LIMITS = {
  RATE_LIMIT_SEARCH: '0',
  RATE_LIMIT_LOGIN_PER_CLIENT: '0',
  RATE_LIMIT_LOGIN_PER_EMAIL: '0',
  RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS: '0',
  RATE_LIMIT_ACCOUNT: '0',
  REQUEST_RETENTION_DAYS: '0',
};

// ---------------------------------------------------------------------------------------------
// Users, tokens and history

let users = 0;

/** A new account, made as operators make one: `school-search user create`, the password on stdin. */
export async function createUser(store: SharedStore, label: string): Promise<{ email: string; password: string }> {
  const email = `${label}-${++users}-${process.pid}@example.com`;
  const result = await runCli(['user', 'create', '--email', email], { env: store.env, input: `${PASSWORD}\n` });
  if (result.code !== 0) throw new Error(`user create exited ${result.code}: ${result.stderr}`);
  return { email, password: PASSWORD };
}

/** Logs in on `instance`; returns the token (its value and id). */
export async function login(
  instance: Instance,
  email: string,
  password: string,
): Promise<{ token: string; tokenId: string }> {
  const answer = await createToken({ client: instance.client(), body: { email, password } });
  if (answer.response?.status !== 200)
    throw new Error(`login on ${instance.name} answered ${answer.response?.status}: ${JSON.stringify(answer.error)}`);
  return { token: answer.data!.token, tokenId: answer.data!.token_id };
}

/**
 * Every record of the caller's history, newest first, read page by page: by `cursor` where the
 * API gives a `next_cursor`, otherwise by `offset` (which the contract bounds at 10,000).
 */
export async function wholeHistory(client: Client): Promise<ApiRequest[]> {
  const limit = 25;
  const records: ApiRequest[] = [];
  let cursor: string | undefined;
  let offset = 0;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await fetchMyRequests({ client, query: cursor === undefined ? { offset, limit } : { cursor, limit } });
    if (page.response?.status !== 200 || !page.data) {
      throw new Error(`fetchMyRequests answered ${page.response?.status}: ${JSON.stringify(page.error)}`);
    }
    records.push(...page.data.requests);
    const next = (page.data as { next_cursor?: string | null }).next_cursor;
    if (next !== undefined) {
      if (next === null) return records;
      cursor = next;
    } else {
      if (page.data.requests.length < limit) return records;
      offset += limit;
      if (offset > 10_000) throw new Error('the history is longer than offset paging reaches (10,000)');
    }
  }
  throw new Error('the history did not end within 1,000 pages');
}

/** Polls `check` every `everyMs` until it is true or `withinMs` passed; returns the time taken, or undefined. */
export async function timeUntil(
  check: () => Promise<boolean>,
  withinMs: number,
  everyMs = 100,
): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < withinMs) {
    if (await check()) return performance.now() - started;
    await sleep(everyMs);
  }
  return undefined;
}

/** Two instances on a fresh shared store for one describe block, started before its tests and ended after them. */
export interface Pair {
  readonly a: Instance;
  readonly b: Instance;
  readonly store: SharedStore;
}

/**
 * Registers the pair's start and end in the current describe block; `prepare` is what
 * sharedStores() gave (a string: the reason the block is skipped, and nothing starts).
 */
export function usePair(prepare: (() => SharedStore) | string, env: Record<string, string>): Pair {
  const servers = instances();
  let store: SharedStore | undefined;
  let pair: [Instance, Instance] | undefined;
  beforeAll(async () => {
    if (typeof prepare === 'string') return;
    store = prepare();
    pair = await servers.startPair(store, env);
  }, 200_000);
  afterAll(async () => {
    await servers.end();
    await store?.remove();
  }, 60_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the pair did not start');
    return value;
  };
  return {
    get a() {
      return started(pair)[0];
    },
    get b() {
      return started(pair)[1];
    },
    get store() {
      return started(store);
    },
  };
}
