// One FerretDB child process: its output (the last part of it), whether and how it exited, and
// stopping it (SIGTERM, then SIGKILL) with its temporary directory. Processes still running when
// this one exits (a crash, process.exit()) are killed and their directories deleted.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/** How much of FerretDB's output is kept for error messages. */
const OUTPUT_LIMIT = 64 * 1024;
/** How many characters of that output an error message shows. */
const TAIL_LIMIT = 4000;
/** After SIGTERM, how long FerretDB may take to stop before it is killed. */
const STOP_GRACE_MS = 5000;

const running = new Map<ChildProcess, string>();
let exitHookInstalled = false;
function cleanUpOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [child, dir] of running) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

export class FerretDbProcess {
  readonly #child: ChildProcess;
  readonly #dir: string;
  readonly #exitedPromise: Promise<void>;
  #output = '';
  #exited = false;
  #spawnFailed = false;
  #exitDescription = '';
  #onChange: (() => void) | undefined;
  #stopped: Promise<void> | undefined;

  /** Starts `binary` with `args` in `dir`, the directory deleted when it stops. */
  constructor(binary: string, args: readonly string[], dir: string) {
    this.#dir = dir;
    const child = spawn(binary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    running.set(child, dir);
    cleanUpOnExit();
    const append = (chunk: Buffer) => {
      this.#output += chunk.toString('utf8');
      if (this.#output.length > OUTPUT_LIMIT) this.#output = this.#output.slice(-OUTPUT_LIMIT);
      this.#onChange?.();
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    this.#exitedPromise = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        this.#ended(signal ? `killed by ${signal}` : `exited with code ${code}`);
        resolve();
      });
    });
    child.once('error', (error) => {
      this.#spawnFailed = true;
      this.#ended(`could not be started: ${error.message}`);
    });
  }

  /** What it wrote (stdout and stderr, interleaved), the last 64 KiB. */
  get output(): string {
    return this.#output;
  }

  get exited(): boolean {
    return this.#exited;
  }

  /** How it ended: "exited with code N", "killed by SIGNAL" or why it could not start. */
  get exitDescription(): string {
    return this.#exitDescription;
  }

  /** The end of its output, for an error message. */
  tail(): string {
    return this.#output.slice(-TAIL_LIMIT).trimEnd();
  }

  /** Called whenever it writes or exits (one listener; undefined removes it). */
  onChange(listener: (() => void) | undefined): void {
    this.#onChange = listener;
  }

  /** SIGTERM, then SIGKILL after 5 s; then its directory is deleted. Idempotent. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      if (!this.#exited && !this.#spawnFailed) {
        this.#child.kill('SIGTERM');
        const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, STOP_GRACE_MS, 'timeout').unref());
        if ((await Promise.race([this.#exitedPromise, timer])) === 'timeout' && !this.#exited) {
          this.#child.kill('SIGKILL');
          await this.#exitedPromise;
        }
      }
      this.#child.stdout?.destroy();
      this.#child.stderr?.destroy();
      await rm(this.#dir, { recursive: true, force: true });
    })();
    return this.#stopped;
  }

  #ended(description: string): void {
    this.#exited = true;
    this.#exitDescription = description;
    running.delete(this.#child);
    this.#onChange?.();
  }
}
