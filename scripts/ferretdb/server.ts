// Starts a throwaway FerretDB (v1, SQLite backend; installed by `npm run ferretdb:setup` as
// .tools/bin/ferretdb) for tests of the MongoDB store adapter: no MongoDB server can run on the
// project's machines, and FerretDB speaks the same wire protocol. Each instance has its own
// temporary directory (SQLite files and state.json) and its own loopback port (the server picks a
// free one, port 0, and says which in its log), so test files can run in parallel.
//
// FerretDB is not MongoDB: what it lacks that the adapter would use is pinned by
// test/stores/ferretdb-gaps.test.ts. It lives with the tools, as `npm run test:ferretdb` and the
// test run's global setup both start it.
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { FerretDbProcess } from './process.ts';
import { freePort } from '../shared/ports.ts';

const BINARY = fileURLToPath(new URL('../../.tools/bin/ferretdb', import.meta.url));

/** Why a FerretDB test is skipped where the binary is missing. */
export const FERRETDB_MISSING = 'FerretDB is not installed (npm run ferretdb:setup)';

/** The path of .tools/bin/ferretdb when it is installed (an executable file), else undefined. */
export function ferretDbBinary(): string | undefined {
  try {
    accessSync(BINARY, constants.X_OK);
    return BINARY;
  } catch {
    return undefined;
  }
}

export interface FerretDbOptions {
  /** How long start-up (listening, then answering a ping) may take; default 30 s. */
  readonly startTimeoutMs?: number;
  /**
   * Makes FerretDB call itself a member of this replica set in `hello` (--repl-set-name). It
   * replicates nothing and offers no transactions: it only lets a client that insists on
   * `replicaSet=` connect. Off by default (a standalone server).
   */
  readonly replSetName?: string;
}

export interface FerretDb {
  /** mongodb://127.0.0.1:PORT/ (no database in the path). */
  readonly uri: string;
  readonly port: number;
  /** The temporary directory holding the SQLite databases (data/) and state.json. */
  readonly dir: string;
  /** The last part of FerretDB's output (stdout and stderr, interleaved). */
  output(): string;
  /** Stops that FerretDB process (SIGTERM, then SIGKILL after 5 s) and deletes its directory. Idempotent. */
  stop(): Promise<void>;
}

/** Thrown by one start attempt when the port was taken in between (only with a port picked in advance). */
class PortTakenError extends Error {}

/** Starts FerretDB on a free loopback port with a fresh temporary SQLite directory; resolves once it answers `ping`. */
export async function startFerretDb(options: FerretDbOptions = {}): Promise<FerretDb> {
  const binary = ferretDbBinary();
  if (binary === undefined) throw new Error(`${FERRETDB_MISSING}: no executable at ${BINARY}`);
  if (options.replSetName === undefined) return attempt(binary, options, 0);
  // In replica-set mode FerretDB's `hello` lists its --listen-addr as the set's only host, and a
  // "127.0.0.1:0" there makes the driver throw (an uncaught "Invalid port (zero) with hostname"):
  // the port is picked in advance instead, and picked again if it was taken in between.
  for (let tries = 1; ; tries++) {
    try {
      return await attempt(binary, options, await freePort());
    } catch (error) {
      if (!(error instanceof PortTakenError) || tries >= 3) throw error;
    }
  }
}

async function attempt(binary: string, options: FerretDbOptions, listenPort: number): Promise<FerretDb> {
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const dir = await mkdtemp(join(tmpdir(), 'ferretdb-'));
  const dataDir = join(dir, 'data');
  await mkdir(dataDir);
  const args = ferretDbArgs(dir, dataDir, listenPort, options.replSetName);
  const ferretdb = new FerretDbProcess(binary, args, dir);
  const fail = async (reason: string): Promise<never> => {
    await ferretdb.stop();
    throw new Error(
      `FerretDB (${binary} ${args.join(' ')}) ${reason}\n--- FerretDB output (tail) ---\n${ferretdb.tail()}`,
    );
  };

  const port = await listeningPort(ferretdb, deadline);
  if (port === undefined) {
    if (listenPort !== 0 && /address already in use/.test(ferretdb.output)) {
      await ferretdb.stop();
      throw new PortTakenError(`port ${listenPort} was taken`);
    }
    return fail(
      ferretdb.exited ? `${ferretdb.exitDescription} before listening` : `did not listen within ${timeoutMs} ms`,
    );
  }
  const uri = `mongodb://127.0.0.1:${port}/`;
  const failure = await untilPing(uri, ferretdb, deadline, timeoutMs);
  if (failure) return fail(failure);
  return { uri, port, dir, output: () => ferretdb.output, stop: () => ferretdb.stop() };
}

function ferretDbArgs(dir: string, dataDir: string, listenPort: number, replSetName: string | undefined): string[] {
  return [
    '--handler=sqlite',
    // A URI naming a directory: one SQLite file per database goes in it. The trailing '/' is required.
    `--sqlite-url=file:${dataDir}/`,
    // state.json (instance UUID, telemetry choice) goes here instead of the working directory.
    `--state-dir=${dir}`,
    // Port 0 (unless picked in advance): the kernel picks a free port; FerretDB logs
    // "Listening on TCP 127.0.0.1:PORT...", which listeningPort reads.
    `--listen-addr=127.0.0.1:${listenPort}`,
    // The debug HTTP server (metrics, pprof) would take 127.0.0.1:8088 in every instance: off.
    '--debug-addr=-',
    '--telemetry=disable',
    // INFO: the "Listening on" line is logged at that level. The output goes to a buffer.
    '--log-level=info',
    '--log-format=console',
    ...(replSetName === undefined ? [] : [`--repl-set-name=${replSetName}`]),
  ];
}

/** The port in its "Listening on" log line; undefined when it exits first or the deadline passes. */
function listeningPort(ferretdb: FerretDbProcess, deadline: number): Promise<number | undefined> {
  return new Promise<number | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
    const check = () => {
      const match = /Listening on TCP 127\.0\.0\.1:(\d+)/.exec(ferretdb.output);
      if (match || ferretdb.exited) {
        clearTimeout(timer);
        ferretdb.onChange(undefined);
        resolve(match ? Number(match[1]) : undefined);
      }
    };
    ferretdb.onChange(check);
    check();
  });
}

/** Waits until it answers a ping through the driver; why not, when it exits first or the deadline passes. */
async function untilPing(uri: string, ferretdb: FerretDbProcess, deadline: number, timeoutMs: number) {
  let lastError: unknown;
  for (;;) {
    if (ferretdb.exited) return `${ferretdb.exitDescription} before answering ping`;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      const last = lastError instanceof Error ? lastError.message : String(lastError);
      return `did not answer ping within ${timeoutMs} ms (last error: ${last})`;
    }
    const client = new MongoClient(uri, {
      serverSelectionTimeoutMS: Math.min(2000, remaining),
      connectTimeoutMS: Math.min(2000, remaining),
      directConnection: true,
    });
    try {
      await client.db('admin').command({ ping: 1 });
      return undefined;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.close().catch(() => undefined);
    }
  }
}
