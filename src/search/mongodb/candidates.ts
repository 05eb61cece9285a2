// What the MongoDB engines share: the candidate documents as the search rules read them, the
// page they answer, and counts cached per catalog version.
import type { Document } from 'mongodb';
import type { EnginePage, EngineQuery, SearchEngine } from '../../domain/search/engine.port.ts';
import type { Analysed } from '../../domain/search/rank-candidates.ts';
import { CATALOG_SCHOOL_FIELDS, toCatalogSchool } from '../../mongodb-shared/school-document.ts';
import type { SearchedSchool } from './search-fields.ts';

/**
 * The fields the rules rank by (search-fields.ts) and the page shows: a candidate's projection, or
 * Atlas's stored source. What a CatalogSchool shows of a document, its name's sort key and the
 * search fields.
 */
export const CANDIDATE_FIELDS = { ...CATALOG_SCHOOL_FIELDS, sortKey: 1, search: 1 } as const;

export type Candidate = Pick<SearchedSchool, '_id' | keyof typeof CANDIDATE_FIELDS>;

/** A candidate as the rules read it, from its stored search fields: nothing is analysed per query. */
export function toAnalysed(d: Candidate): Analysed {
  const s = d.search;
  return {
    school: toCatalogSchool(d),
    sortKey: d.sortKey,
    fields: [s.name, s.aliases, s.city],
    nameKey: s.nameKey,
    aliasKeys: s.aliasKeys,
    nameWords: s.nameWords,
  };
}

/** Documents one look-up may read: the bound on what a query examines (docs/search.md). */
export const CANDIDATE_LIMIT = 1000;

/** What the engines need of the store: pipelines run on the schools, the catalog's version, readiness. */
export interface SearchSource {
  aggregate(pipeline: Document[]): Promise<Document[]>;
  catalogVersion(): Promise<string>;
  ready(): Promise<void>;
  /** Totals shared with the other instances on the same store, when it keeps them. */
  readonly totals?: SharedTotals | undefined;
}

/**
 * Exact totals that every instance on a store shares, per catalog version: one that reads many
 * documents is counted once for all of them rather than once per instance (search-totals.ts).
 */
export interface SharedTotals {
  /** The total under `key` for `version`: another instance's, or counted here by `count`. */
  get(version: string, key: string, count: () => Promise<number>): Promise<number>;
}

export interface CandidateEngineOptions extends CountCacheOptions {
  /** Documents one look-up reads (default CANDIDATE_LIMIT). */
  readonly candidateLimit?: number;
  /** How long a search trusts the last readiness check, passed or failed (default 1 s). */
  readonly readyTtlMs?: number;
}

/** An engine that finds candidates in MongoDB, counting words per catalog version, and ranks them by the rules. */
export abstract class CandidateEngine implements SearchEngine {
  protected readonly source: SearchSource;
  protected readonly limit: number;
  protected readonly cache: CountCache;
  readonly #readyTtlMs: number;
  #checked: { at: number; result: Promise<void> } | undefined;
  /** Readiness checks started by confirmations (confirmed()), and the last one. */
  #confirmations = 0;
  #confirmation: { readonly seq: number; readonly result: Promise<void> } | undefined;

  constructor(source: SearchSource, options: CandidateEngineOptions = {}) {
    this.source = source;
    this.limit = options.candidateLimit ?? CANDIDATE_LIMIT;
    this.cache = new CountCache(() => source.catalogVersion(), options);
    this.#readyTtlMs = options.readyTtlMs ?? 1000;
  }

  /** Readiness asks afresh each time: a probe is rare, and must see a fix at once. */
  ready(): Promise<void> {
    return this.source.ready();
  }

  /**
   * Answers only while the engine is ready. Unchecked, a setup problem would not be a 503 naming
   * its fix but a 500 (a server without $text or $search), an empty page (Atlas answers a missing
   * index with no results) or wrong results (search fields of an older version). The check is
   * shared by the searches of one second, so it costs a store round trip per second, not per search.
   */
  async search(query: EngineQuery): Promise<EnginePage> {
    const now = Date.now();
    if (!this.#checked || now - this.#checked.at >= this.#readyTtlMs) {
      const result = this.source.ready();
      // Awaited by the searches that share it; this keeps a failure no search awaited from being unhandled.
      result.catch(() => undefined);
      this.#checked = { at: now, result };
    }
    await this.#checked.result;
    return this.answer(query);
  }

  /**
   * `found` with exact counts where soft matching would compare capped ones: a word's count is
   * read up to the limit + 1, so two words in more schools than that tie at the cap, and the
   * word dropped would be the later typed, where the reference drops the one truly most common
   * (issue 43, H1). When two or more of `words` are capped, each capped one is counted exactly
   * (`exact`: cached per catalog version and scope, like a total); otherwise `found` itself.
   */
  protected async exactFound(
    words: readonly number[],
    found: (w: number) => number,
    exact: (w: number) => Promise<number>,
  ): Promise<(w: number) => number> {
    const capped = words.filter((w) => found(w) > this.limit);
    if (capped.length < 2) return found;
    const counts = new Map(await Promise.all(capped.map(async (w) => [w, await exact(w)] as const)));
    return (w) => counts.get(w) ?? found(w);
  }

  /**
   * Where a read's "nothing" must be confirmed before it is believed (Atlas answers a missing
   * index with nothing): a mark taken before the read, for confirmed().
   */
  protected confirmationMark(): number {
    return this.#confirmations;
  }

  /**
   * A readiness check that started after `mark` was taken (so after the read it confirms began):
   * one in flight or done is shared, else one is started. So the reads of one search, and of
   * searches that ran together, share one check, instead of a check for each word counted 0
   * (issue 43, L4: gibberish multiplied them).
   */
  protected confirmed(mark: number): Promise<void> {
    const last = this.#confirmation;
    if (last && last.seq > mark) return last.result;
    const result = this.source.ready();
    result.catch(() => undefined);
    this.#confirmation = { seq: ++this.#confirmations, result };
    return result;
  }

  protected abstract answer(query: EngineQuery): Promise<EnginePage>;
}

export interface CountCacheOptions {
  /** How long a catalog version read is trusted (default 1 s). */
  readonly versionTtlMs?: number;
  /** Counts kept (default 20,000); the least recently used go first. */
  readonly size?: number;
  /**
   * How long a count is trusted within its version (default: as long as the version). For a
   * source that may answer from before the version it is cached under (Atlas Search: mongot's
   * index follows the collection eventually, docs/stores.md), this bounds how long such a count
   * outlives the lag: a word counted 0 there is unknown for at most this long once indexed.
   */
  readonly countTtlMs?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

/**
 * Counts that hold for one catalog version: cleared when the version changes. Only the version
 * read last fills it: a search still holding an older one (read before) computes without caching,
 * so it can neither cache a count under a version it did not read at nor empty the cache of the
 * newer one. The searches that need one key at once share its computation.
 */
export class CountCache {
  readonly #readVersion: () => Promise<string>;
  readonly #ttlMs: number;
  readonly #size: number;
  readonly #countTtlMs: number;
  readonly #now: () => number;
  #version: { value: string; at: number } | undefined;
  #reading: Promise<string> | undefined;
  #cacheVersion = '';
  readonly #counts = new Map<string, { value: number; at: number }>();
  readonly #computing = new Map<string, Promise<number>>();

  constructor(readVersion: () => Promise<string>, options: CountCacheOptions = {}) {
    this.#readVersion = readVersion;
    this.#ttlMs = options.versionTtlMs ?? 1000;
    this.#size = options.size ?? 20_000;
    this.#countTtlMs = options.countTtlMs ?? Infinity;
    this.#now = options.now ?? Date.now;
  }

  /** The version read last: the only one whose values are kept. */
  get latest(): string | undefined {
    return this.#version?.value;
  }

  /** The catalog's version, read at most once per TTL (one read shared by the searches that wait for it). */
  async version(): Promise<string> {
    const now = this.#now();
    if (this.#version && now - this.#version.at < this.#ttlMs) return this.#version.value;
    this.#reading ??= this.#readVersion()
      .then((value) => {
        this.#version = { value, at: now };
        return value;
      })
      .finally(() => (this.#reading = undefined));
    return this.#reading;
  }

  async get(version: string, key: string, compute: () => Promise<number>): Promise<number> {
    if (version !== this.#cacheVersion) {
      if (version !== this.#version?.value) return compute();
      this.#counts.clear();
      this.#computing.clear();
      this.#cacheVersion = version;
    }
    const hit = this.#counts.get(key);
    if (hit !== undefined && this.#now() - hit.at < this.#countTtlMs) {
      this.#counts.delete(key);
      this.#counts.set(key, hit);
      return hit.value;
    }
    const shared = this.#computing.get(key);
    if (shared) return shared;
    const at = this.#now();
    const computing = compute()
      .then((value) => {
        if (this.#cacheVersion === version && this.#computing.get(key) === computing) {
          this.#counts.delete(key);
          this.#counts.set(key, { value, at });
          if (this.#counts.size > this.#size) this.#counts.delete(this.#counts.keys().next().value!);
        }
        return value;
      })
      .finally(() => {
        if (this.#computing.get(key) === computing) this.#computing.delete(key);
      });
    this.#computing.set(key, computing);
    return computing;
  }
}

/**
 * Values that hold for one catalog version, within a budget of their weights (the least recently
 * used go first): the $text engine's few matches of common words, by id. As CountCache, only the
 * version read last (`latest`) is kept.
 */
export class VersionMemo<T> {
  readonly #budget: number;
  readonly #weigh: (value: T) => number;
  #version = '';
  #weight = 0;
  readonly #values = new Map<string, T>();

  constructor(budget: number, weigh: (value: T) => number) {
    this.#budget = budget;
    this.#weigh = weigh;
  }

  get(version: string, key: string): T | undefined {
    if (version !== this.#version) return undefined;
    const value = this.#values.get(key);
    if (value !== undefined) {
      this.#values.delete(key);
      this.#values.set(key, value);
    }
    return value;
  }

  set(version: string, key: string, value: T, latest: string | undefined): void {
    if (version !== latest) return;
    if (version !== this.#version) {
      this.#values.clear();
      this.#weight = 0;
      this.#version = version;
    }
    const before = this.#values.get(key);
    if (before !== undefined) this.#weight -= this.#weigh(before);
    this.#values.delete(key);
    this.#values.set(key, value);
    this.#weight += this.#weigh(value);
    while (this.#weight > this.#budget && this.#values.size > 0) {
      const [oldest, dropped] = this.#values.entries().next().value!;
      this.#values.delete(oldest);
      this.#weight -= this.#weigh(dropped);
    }
  }
}
