// What the MongoDB engines share: the candidate documents as the search rules read them, the
// page they answer, and counts cached per catalog version.
import type { Document } from 'mongodb';
import type { EnginePage, EngineQuery, SearchEngine } from '../../domain/search/engine.ts';
import type { Analysed } from '../../domain/search/rank.ts';
import { knownKind } from '../../domain/school.kind.ts';
import { knownLocation } from '../../domain/school.location.ts';
import type { SearchedSchool } from './catalog.port.ts';

/** The fields the rules rank by (search.fields.ts) and the page shows: a candidate's projection, or Atlas's stored source. */
export const CANDIDATE_FIELDS = {
  name: 1,
  city: 1,
  state: 1,
  imageUrl: 1,
  address: 1,
  postalCode: 1,
  latitude: 1,
  longitude: 1,
  level: 1,
  lowestGrade: 1,
  highestGrade: 1,
  type: 1,
  tags: 1,
  aliases: 1,
  prominence: 1,
  sortKey: 1,
  search: 1,
} as const;

export type Candidate = Pick<SearchedSchool, '_id' | keyof typeof CANDIDATE_FIELDS>;

/** A candidate as the rules read it, from its stored search fields: nothing is analysed per query. */
export function toAnalysed(d: Candidate): Analysed {
  const s = d.search;
  return {
    school: {
      id: d._id,
      name: d.name,
      city: d.city,
      state: d.state,
      imageUrl: d.imageUrl ?? null,
      ...knownLocation(d),
      ...knownKind(d),
      aliases: d.aliases ?? [],
      prominence: d.prominence ?? 0,
    },
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

  protected abstract answer(query: EngineQuery): Promise<EnginePage>;
}

export interface CountCacheOptions {
  /** How long a catalog version read is trusted (default 1 s). */
  readonly versionTtlMs?: number;
  /** Counts kept (default 20,000); the least recently used go first. */
  readonly size?: number;
}

/** Counts that hold for one catalog version: cleared when the version changes. */
export class CountCache {
  readonly #readVersion: () => Promise<string>;
  readonly #ttlMs: number;
  readonly #size: number;
  #version: { value: string; at: number } | undefined;
  #cacheVersion = '';
  readonly #counts = new Map<string, number>();

  constructor(readVersion: () => Promise<string>, options: CountCacheOptions = {}) {
    this.#readVersion = readVersion;
    this.#ttlMs = options.versionTtlMs ?? 1000;
    this.#size = options.size ?? 20_000;
  }

  /** The catalog's version, read at most once per TTL. */
  async version(): Promise<string> {
    const now = Date.now();
    if (!this.#version || now - this.#version.at >= this.#ttlMs)
      this.#version = { value: await this.#readVersion(), at: now };
    return this.#version.value;
  }

  async get(version: string, key: string, compute: () => Promise<number>): Promise<number> {
    if (version !== this.#cacheVersion) {
      this.#counts.clear();
      this.#cacheVersion = version;
    }
    const hit = this.#counts.get(key);
    if (hit !== undefined) {
      this.#counts.delete(key);
      this.#counts.set(key, hit);
      return hit;
    }
    const value = await compute();
    if (this.#cacheVersion === version) {
      this.#counts.set(key, value);
      if (this.#counts.size > this.#size) this.#counts.delete(this.#counts.keys().next().value!);
    }
    return value;
  }
}
