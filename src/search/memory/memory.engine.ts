// The search engine of the API: the in-process index (memory-index.ts) of the store's catalog,
// kept fresh. Every `refreshMs` it asks the store for the catalog's version (one cheap read);
// when an import changed the catalog (in this process or any other: the command line, another
// API instance), it asks the store for the schools changed since its last full build
// (SchoolStore.catalogChanges): when there are few (deltaLimit), it indexes only those and
// searches them beside the build, which no longer counts the schools they replace (a delta:
// milliseconds, not a rebuild); once they are many (foldAt), a full build is made in the
// background and takes their place. Otherwise (more changes, or a store that cannot tell) it
// reads the catalog again and builds a new index (in a worker thread when the catalog is
// large). Either way the new index is swapped in whole: searches meanwhile use the previous one,
// never a mix of two catalogs, and a delta's answers are exactly a full build's (the property
// tests hold them side by side).
// With `indexFiles` (index-file.ts), a start first reads the index saved for the catalog's
// version instead of building it, and every full build is saved.
import { Worker } from 'node:worker_threads';
import type { CatalogSchool } from '../../domain/catalog/catalog.ports.ts';
import type { EnginePage, EngineQuery, SearchEngine } from '../../domain/search/engine.port.ts';
import { IndexNotReadyError } from '../../domain/shared/errors.ts';
import type { SchoolStore } from '../../domain/catalog/catalog.ports.ts';
import { buffersOf, IndexBuilder, type IndexData } from './build.ts';
import type { BuildMessage, BuildReply } from './build.worker.ts';
import { type IndexFiles, type IndexFileTarget, type SaveOutcome, writeIndexFile } from './index-file.ts';
import { packCatalog, type PackedCatalog } from './packed-catalog.ts';
import { MemoryIndex } from './memory-index.ts';

export interface MemoryEngineOptions {
  /** How often to look for a changed catalog (default 250 ms: a small import is searchable within a second; 0: only when refresh() is called). */
  readonly refreshMs?: number;
  /** Catalogs of at least this many schools are indexed in a worker thread (default 20,000). */
  readonly workerThreshold?: number;
  /** The most changed schools applied as a delta (default 10,000); more are a full rebuild. */
  readonly deltaLimit?: number;
  /** Past this many changed schools in the delta (default 1,000), a full build folds them in, in the background. */
  readonly foldAt?: number;
  /**
   * Told when a refresh failed (the previous index keeps serving) or succeeded: `changes`, a
   * delta of that many schools; otherwise a full build (`folded`: of a delta), or the index
   * read from its file (`from`).
   */
  readonly onRefresh?: (
    event:
      | { ok: true; schools: number; ms: number; changes?: number; folded?: boolean; from?: 'file' }
      | { ok: false; error: unknown },
  ) => void;
  /** Where the index of a catalog version is saved and found again (index-file.ts); none: every start builds. */
  readonly indexFiles?: IndexFiles;
}

/** A full build, and the version of the catalog it is. */
interface FullBuild {
  readonly data: IndexData;
  readonly version: string;
}

/** Changed schools indexed on this thread up to this many (a 1,000-school delta took 194 ms to index on a loaded machine: an event loop held that long); more in a worker thread. */
const DELTA_ON_THREAD = 250;

export class MemorySearchEngine implements SearchEngine {
  readonly #schools: Pick<SchoolStore, 'catalogVersion' | 'readCatalog' | 'catalogChanges'>;
  readonly #refreshMs: number;
  readonly #workerThreshold: number;
  readonly #deltaLimit: number;
  readonly #foldAt: number;
  readonly #onRefresh: MemoryEngineOptions['onRefresh'];
  #index: MemoryIndex | undefined;
  #version: string | undefined;
  /** The version of the index's full build: the deltas are the changes since. */
  #baseVersion: string | undefined;
  #refreshing: Promise<boolean> | undefined;
  /** A full build under way in the background to fold a delta in, and the one finished, to swap in at the next refresh. */
  #folding: Promise<void> | undefined;
  #folded: FullBuild | undefined;
  /** Counts the full builds swapped in: a fold begun before the last one is of no use. */
  #builds = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #files: IndexFiles | undefined;
  /** What the first index is waiting for, for ready()'s answer. */
  #starting: 'waiting' | 'loading' | Build = 'waiting';

  constructor(
    schools: Pick<SchoolStore, 'catalogVersion' | 'readCatalog' | 'catalogChanges'>,
    options: MemoryEngineOptions = {},
  ) {
    this.#schools = schools;
    this.#refreshMs = options.refreshMs ?? 250;
    this.#workerThreshold = options.workerThreshold ?? 20_000;
    this.#deltaLimit = options.deltaLimit ?? 10_000;
    this.#foldAt = options.foldAt ?? 1_000;
    this.#onRefresh = options.onRefresh;
    this.#files = options.indexFiles;
  }

  /** Builds the first index, then keeps it fresh. */
  async start(): Promise<void> {
    await this.#loadSaved();
    await this.refresh();
    if (this.#refreshMs > 0 && !this.#closed) {
      this.#timer = setInterval(() => void this.refresh().catch(() => undefined), this.#refreshMs);
      this.#timer.unref();
    }
  }

  /** Unavailable until the first index is built (start); afterwards an old index keeps serving. */
  async ready(): Promise<void> {
    if (this.#index !== undefined) return;
    const starting = this.#starting;
    throw new IndexNotReadyError(
      starting === 'waiting'
        ? 'The search index is not built yet: the server is starting.'
        : starting === 'loading'
          ? 'The search index is being loaded from its file.'
          : `The search index is being built: ${starting.count.toLocaleString('en-US')} schools read.`,
    );
  }

  /** The index saved for the catalog's current version, if there is one (index-file.ts): no catalog read, no build. */
  async #loadSaved(): Promise<void> {
    if (!this.#files || this.#index) return;
    this.#starting = 'loading';
    try {
      const started = performance.now();
      const version = await this.#schools.catalogVersion();
      const data = await this.#files.load(version);
      if (!data || this.#closed || this.#index) return;
      this.#swap(new MemoryIndex(data), version, version);
      this.#onRefresh?.({ ok: true, schools: data.docCount, ms: performance.now() - started, from: 'file' });
    } catch {
      // A file that cannot be read is no file (the port logs why): the catalog is read and the index built.
    }
  }

  /** Schools in the index now. */
  get size(): number {
    return this.#index?.size ?? 0;
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    const index = this.#index;
    if (!index) throw new IndexNotReadyError('The search index is being built.');
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
      const folded = this.#folded;
      this.#folded = undefined;
      if (folded) return await this.#swapFolded(folded);
      if (this.#index && (await this.#schools.catalogVersion()) === this.#version) return false;
      if (this.#index && (await this.#applyChanges(this.#index))) return true;
      const started = performance.now();
      const { data, version } = await this.#buildAll();
      if (this.#closed) return false;
      this.#swap(new MemoryIndex(data), version, version);
      this.#onRefresh?.({ ok: true, schools: data.docCount, ms: performance.now() - started });
      return true;
    } catch (error) {
      this.#onRefresh?.({ ok: false, error });
      throw error;
    }
  }

  /**
   * Applies the changes since the index's full build as a delta, when the store can tell them and
   * they are few: true when it did (or found none). Past foldAt changed schools, starts a full
   * build in the background to take their place.
   */
  async #applyChanges(index: MemoryIndex): Promise<boolean> {
    if (!this.#schools.catalogChanges || this.#baseVersion === undefined) return false;
    const started = performance.now();
    const changes = await this.#schools.catalogChanges(this.#baseVersion, this.#deltaLimit);
    if (!changes) return false;
    if (changes.version === this.#version) return true;
    const build = new Build(DELTA_ON_THREAD);
    try {
      for (let at = 0; at < changes.schools.length; at += CHANGES_BATCH)
        build.add(changes.schools.slice(at, at + CHANGES_BATCH));
    } catch (error) {
      await build.abandon();
      throw error;
    }
    const data = await build.finish();
    if (this.#closed || this.#index !== index) return false;
    const next = MemoryIndex.withChanges(index, data);
    this.#swap(next, changes.version, this.#baseVersion);
    this.#onRefresh?.({ ok: true, schools: next.size, ms: performance.now() - started, changes: next.changes });
    if (next.changes >= this.#foldAt) this.#fold();
    return true;
  }

  /** A full build in the background, swapped in at the next refresh (which asks for one at once). */
  #fold(): void {
    const builds = this.#builds;
    this.#folding ??= this.#buildAll()
      .then((built) => {
        if (this.#closed || this.#builds !== builds) return;
        this.#folded = built;
        void this.refresh().catch(() => undefined);
      })
      .catch((error: unknown) => this.#onRefresh?.({ ok: false, error }))
      .finally(() => (this.#folding = undefined));
  }

  /** The full build a fold made becomes the index's, with the changes made since it was read applied. */
  async #swapFolded(folded: FullBuild): Promise<boolean> {
    const started = performance.now();
    const base = new MemoryIndex(folded.data);
    this.#swap(base, folded.version, folded.version);
    this.#onRefresh?.({ ok: true, schools: base.size, ms: performance.now() - started, folded: true });
    if ((await this.#schools.catalogVersion()) !== folded.version) await this.#applyChanges(base);
    return true;
  }

  /** Puts `next` in place of the index searched now, whose memory goes back at once (what `next` shares of it stays). */
  #swap(next: MemoryIndex, version: string, baseVersion: string | undefined): void {
    const previous = this.#index;
    if (baseVersion !== this.#baseVersion || next.changes === 0) this.#builds++;
    this.#index = next;
    this.#version = version;
    this.#baseVersion = baseVersion;
    previous?.release(next);
  }

  /**
   * The whole catalog, read from the store at one version and indexed; saved to its file (with
   * indexFiles), by the worker thread when it built it, else from a copy while it serves.
   */
  async #buildAll(): Promise<FullBuild> {
    let build = new Build(this.#workerThreshold);
    let version: string | undefined;
    try {
      if (!this.#index) this.#starting = build;
      for await (const chunk of this.#schools.readCatalog()) {
        if (chunk.kind === 'schools') build.add(chunk.schools);
        else if (chunk.kind === 'version') version = chunk.version;
        else {
          await build.abandon();
          build = new Build(this.#workerThreshold);
          if (!this.#index) this.#starting = build;
        }
      }
      if (version === undefined) throw new Error('the store ended the catalog without its version');
    } catch (error) {
      await build.abandon();
      throw error;
    }
    const files = this.#files;
    const target = await files?.target(version);
    const data = await build.finish(target && files && { target, saved: (outcome) => files.saved(outcome) });
    if (target && files && !build.inWorker && !this.#closed) void saveCopy(target, data, files);
    return { data, version };
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
  }
}

/** Changed schools packed per batch, as a store's catalog read hands them. */
const CHANGES_BATCH = 2_000;

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

  /** Schools taken so far. */
  get count(): number {
    return this.#count;
  }

  /** Whether the index is built in a worker thread (which then saves it itself). */
  get inWorker(): boolean {
    return this.#worker !== undefined || this.#handedOff;
  }

  #handedOff = false;

  /** `save`: in a worker, the worker writes the file too, and is let go once it has (`saved`). */
  async finish(save?: { target: IndexFileTarget; saved: (outcome: SaveOutcome) => void }): Promise<IndexData> {
    if (!this.#worker) {
      const builder = new IndexBuilder();
      for (const batch of this.#waiting) builder.add(batch);
      this.#waiting = [];
      return builder.finish();
    }
    const worker = this.#worker;
    try {
      if (save) {
        worker.on('message', (reply: BuildReply) => {
          if (!('saved' in reply)) return;
          save.saved(reply.saved);
          void worker.terminate();
        });
      }
      worker.postMessage({ end: true, ...(save ? { save: save.target } : {}) } satisfies BuildMessage);
      const data = await this.#built!;
      // The worker still writes the file: it ends once it has (above).
      if (save) {
        this.#worker = undefined;
        this.#handedOff = true;
      }
      return data;
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
      worker.once('message', (reply: BuildReply) =>
        'index' in reply ? resolve(reply.index) : reject(new Error('the worker saved no index')),
      );
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

/** Saves an index built on this thread: copied first (small: under the worker threshold), so that a release of it cannot cut the write short. */
async function saveCopy(target: IndexFileTarget, data: IndexData, files: IndexFiles): Promise<void> {
  const started = performance.now();
  try {
    const { bytes } = await writeIndexFile(target, structuredClone(data));
    files.saved({ ok: true, path: target.path, bytes, ms: performance.now() - started });
  } catch (error) {
    files.saved({ ok: false, error });
  }
}
