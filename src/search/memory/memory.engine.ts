// The search engine of the API: the in-process index (memory-index.ts) of the store's catalog,
// kept fresh. Every `refreshMs` it asks the store for the catalog's version (one cheap read);
// when an import changed the catalog (in this process or any other: the command line, another
// API instance), it reads the catalog again, builds a new index (in a worker thread when the
// catalog is large) and swaps it in. Searches meanwhile use the previous index, whole: never a
// mix of two catalogs.
import { Worker } from 'node:worker_threads';
import type { CatalogSchool } from '../../domain/catalog/catalog.ports.ts';
import type { EnginePage, EngineQuery, SearchEngine } from '../../domain/search/engine.port.ts';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import type { SchoolStore } from '../../domain/catalog/catalog.ports.ts';
import { buffersOf, IndexBuilder, type IndexData } from './build.ts';
import type { BuildMessage } from './build.worker.ts';
import { packCatalog, type PackedCatalog } from './packed-catalog.ts';
import { MemoryIndex } from './memory-index.ts';

export interface MemoryEngineOptions {
  /** How often to look for a changed catalog (default 1000 ms; 0: only when refresh() is called). */
  readonly refreshMs?: number;
  /** Catalogs of at least this many schools are indexed in a worker thread (default 20,000). */
  readonly workerThreshold?: number;
  /** Told when a refresh failed (the previous index keeps serving) or succeeded. */
  readonly onRefresh?: (event: { ok: true; schools: number; ms: number } | { ok: false; error: unknown }) => void;
}

export class MemorySearchEngine implements SearchEngine {
  readonly #schools: Pick<SchoolStore, 'catalogVersion' | 'readCatalog'>;
  readonly #refreshMs: number;
  readonly #workerThreshold: number;
  readonly #onRefresh: MemoryEngineOptions['onRefresh'];
  #index: MemoryIndex | undefined;
  #version: string | undefined;
  #refreshing: Promise<boolean> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(schools: Pick<SchoolStore, 'catalogVersion' | 'readCatalog'>, options: MemoryEngineOptions = {}) {
    this.#schools = schools;
    this.#refreshMs = options.refreshMs ?? 1000;
    this.#workerThreshold = options.workerThreshold ?? 20_000;
    this.#onRefresh = options.onRefresh;
  }

  /** Builds the first index, then keeps it fresh. */
  async start(): Promise<void> {
    await this.refresh();
    if (this.#refreshMs > 0 && !this.#closed) {
      this.#timer = setInterval(() => void this.refresh().catch(() => undefined), this.#refreshMs);
      this.#timer.unref();
    }
  }

  /** Unavailable until the first index is built (start); afterwards an old index keeps serving. */
  async ready(): Promise<void> {
    if (this.#index === undefined) throw new StoreUnavailableError('The search index is being built.');
  }

  /** Schools in the index now. */
  get size(): number {
    return this.#index?.size ?? 0;
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    const index = this.#index;
    if (!index) throw new StoreUnavailableError('The search index is being built.');
    const { total, hits } = index.search(query);
    return { total, hits, edition: index };
  }

  /** The index searched now: immutable, and replaced whole when the catalog changes. */
  edition(): object | undefined {
    return this.#index;
  }

  /**
   * Rebuilds the index when the catalog's version changed since the last build; true when it
   * did. Concurrent calls share one refresh. A failure leaves the previous index in place.
   */
  refresh(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    this.#refreshing ??= this.#refresh().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  async #refresh(): Promise<boolean> {
    try {
      if (this.#index && (await this.#schools.catalogVersion()) === this.#version) return false;
      const started = performance.now();
      let build = new Build(this.#workerThreshold);
      let version: string | undefined;
      try {
        for await (const chunk of this.#schools.readCatalog()) {
          if (chunk.kind === 'schools') build.add(chunk.schools);
          else if (chunk.kind === 'version') version = chunk.version;
          else {
            await build.abandon();
            build = new Build(this.#workerThreshold);
          }
        }
        if (version === undefined) throw new Error('the store ended the catalog without its version');
      } catch (error) {
        await build.abandon();
        throw error;
      }
      const data = await build.finish();
      if (this.#closed) return false;
      const previous = this.#index;
      this.#index = new MemoryIndex(data);
      previous?.release();
      this.#version = version;
      this.#onRefresh?.({ ok: true, schools: data.docCount, ms: performance.now() - started });
      return true;
    } catch (error) {
      this.#onRefresh?.({ ok: false, error });
      throw error;
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
  }
}

/**
 * One build of an index from a catalog read in batches. Each batch is packed as it comes
 * (packed-catalog.ts: one UTF-8 buffer and typed arrays, a few milliseconds a batch) and its
 * schools let go. Up to `threshold` schools the packed batches wait, and the index is built on
 * this thread at the end; past it, a worker thread is started and handed every packed batch as
 * it comes, transferred, not copied: it takes each in while the store reads the next (build.ts),
 * and only finishing the index waits for the last.
 */
class Build {
  readonly #threshold: number;
  #waiting: PackedCatalog[] = [];
  #count = 0;
  #worker: Worker | undefined;
  #built: Promise<IndexData> | undefined;

  constructor(threshold: number) {
    this.#threshold = threshold;
  }

  add(schools: readonly CatalogSchool[]): void {
    const batch = packCatalog(schools);
    this.#count += batch.count;
    if (!this.#worker && this.#count >= this.#threshold) this.#start();
    if (this.#worker) this.#post(batch);
    else this.#waiting.push(batch);
  }

  async finish(): Promise<IndexData> {
    if (!this.#worker) {
      const builder = new IndexBuilder();
      for (const batch of this.#waiting) builder.add(batch);
      this.#waiting = [];
      return builder.finish();
    }
    try {
      this.#worker.postMessage({ end: true } satisfies BuildMessage);
      return await this.#built!;
    } finally {
      await this.abandon();
    }
  }

  async abandon(): Promise<void> {
    this.#waiting = [];
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #start(): void {
    const worker = new Worker(new URL('./build.worker.ts', import.meta.url));
    this.#built = new Promise<IndexData>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the index build worker exited with code ${code}`)));
    });
    // Caught here too: a worker that fails before finish() is awaited is no unhandled rejection.
    this.#built.catch(() => undefined);
    this.#worker = worker;
    for (const batch of this.#waiting) this.#post(batch);
    this.#waiting = [];
  }

  #post(batch: PackedCatalog): void {
    this.#worker!.postMessage({ batch } satisfies BuildMessage, buffersOf(batch));
  }
}
