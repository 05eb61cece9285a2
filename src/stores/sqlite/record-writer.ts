// Commits request records in a worker thread (record.worker.ts) with a connection of its own to
// the store file: node:sqlite is synchronous, and each commit's fsync (synchronous=FULL, 0.2 ms
// to several ms) would otherwise stop the event loop, and every request with it. The thread is
// started at the first write; a thread that dies fails the writes it had and is started again.
import { Worker } from 'node:worker_threads';
import type { RequestRecord } from '../../domain/metering/metering.ports.ts';
import type { Refusal } from './records.ts';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import type { WriteAnswer, WriteRequest } from './record.worker.ts';

export class RecordWriter {
  readonly #options: { path: string; busyBudgetMs: number };
  #worker: Worker | undefined;
  #next = 0;
  readonly #waiting = new Map<number, { resolve(refused: readonly Refusal[]): void; reject(error: unknown): void }>();

  constructor(options: { path: string; busyBudgetMs: number }) {
    this.#options = options;
  }

  /**
   * Resolves once the records are durable, to those refused (writeRecords: their token no
   * longer held, or no longer lists their origin); rejects with StoreUnavailableError when the store cannot take them.
   */
  write(records: readonly RequestRecord[], madeWith?: readonly (string | undefined)[]): Promise<readonly Refusal[]> {
    return this.#ask((id) => (madeWith ? { id, records, madeWith } : { id, records }));
  }

  /** Commits the probe of what a record writes (probeRecords), in this thread's connection, as records are. */
  async probe(): Promise<void> {
    await this.#ask((id) => ({ id, probe: true, records: [] }));
  }

  /** Starts the thread now rather than at the first write (a thread loads its modules and opens the file first: a few hundred milliseconds). */
  warmUp(): void {
    this.#worker ??= this.#start();
  }

  #ask(request: (id: number) => WriteRequest): Promise<readonly Refusal[]> {
    this.#worker ??= this.#start();
    const worker = this.#worker;
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage(request(id));
    });
  }

  /** Ends the thread; writes still waiting for it fail as unavailable (the request log waits for its own first). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failWaiting(new Error('the record writer was closed'));
    await worker?.terminate();
  }

  #failWaiting(cause: unknown): void {
    for (const { reject } of this.#waiting.values())
      reject(new StoreUnavailableError('The request record writer stopped.', { cause }));
    this.#waiting.clear();
  }

  #start(): Worker {
    const worker = new Worker(new URL('./record.worker.ts', import.meta.url), { workerData: this.#options });
    // The API's shutdown closes the store, which ends the thread; it never keeps a process alive.
    worker.unref();
    worker.on('message', ({ id, error, refused }: WriteAnswer) => {
      const waiting = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (!error) waiting?.resolve(refused ?? []);
      else
        waiting?.reject(
          error.unavailable
            ? new StoreUnavailableError('The embedded store is unavailable.')
            : new Error(error.message),
        );
    });
    // A thread that failed or ended takes its unanswered writes with it; the next write starts another.
    const fail = (cause: unknown) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#failWaiting(cause);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the record writer exited with code ${code}`)));
    return worker;
  }
}
