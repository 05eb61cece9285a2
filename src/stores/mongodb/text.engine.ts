// MONGODB_SEARCH=text: MongoDB's own text index finds the candidates, the search rules rank them
// (src/domain/search/rank.ts), so results mean what the in-process engine's mean, without typos:
// the text index matches whole tokens only, and a token per typo would multiply it by the
// alphabet. The in-process engine (MONGODB_SEARCH=memory, the default) and Atlas Search have them.
//
// Per query: each word's count of schools (one token, counted up to the candidate limit, cached per
// catalog version); the words no school has are left out; the rarest word's schools are read (one
// $text look-up of one token, at most CANDIDATE_LIMIT documents) and ranked here. When even the
// rarest word is in more schools than that, the page is the best of the first CANDIDATE_LIMIT the
// index yields, and the total is counted once per catalog version (docs/search.md says why).
import type { Document } from 'mongodb';
import type { EnginePage, EngineQuery, SearchEngine } from '../../domain/search/engine.ts';
import { withoutWords } from '../../domain/search/query.ts';
import { rankCandidates } from '../../domain/search/rank.ts';
import { CountCache, pageOf, toAnalysed, type Candidate, type CountCacheOptions } from './candidates.ts';
import { tokenOf } from './search.fields.ts';
import { candidatesPipeline, countPipeline, totalPipeline } from './text.pipeline.ts';

/** Documents one look-up may read: the bound on what a query examines (docs/search.md). */
export const CANDIDATE_LIMIT = 1000;

/** What the engine needs of the store: pipelines run on the schools, the catalog's version, readiness. */
export interface SearchSource {
  aggregate(pipeline: Document[]): Promise<Document[]>;
  catalogVersion(): Promise<string>;
  ready(): Promise<void>;
}

export interface CandidateEngineOptions extends CountCacheOptions {
  /** Documents one look-up reads (default CANDIDATE_LIMIT). */
  readonly candidateLimit?: number;
}

export class MongoTextEngine implements SearchEngine {
  readonly #source: SearchSource;
  readonly #limit: number;
  readonly #cache: CountCache;

  constructor(source: SearchSource, options: CandidateEngineOptions = {}) {
    this.#source = source;
    this.#limit = options.candidateLimit ?? CANDIDATE_LIMIT;
    this.#cache = new CountCache(() => source.catalogVersion(), options);
  }

  ready(): Promise<void> {
    return this.#source.ready();
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    const version = await this.#cache.version();
    const typed = query.plan;
    const tokens = typed.words.map((w) => tokenOf(w.text, query.state));
    const counts = await Promise.all(tokens.map((t) => this.#cache.get(version, `count ${t}`, () => this.#count(countPipeline(t, this.#limit + 1)))));
    // Words no school has are left out as if not typed (they still count in the score).
    const known = typed.words.map((_, w) => w).filter((w) => counts[w]! > 0);
    if (known.length === 0) return { total: 0, hits: [] };
    const plan = withoutWords(typed, known);
    const found = (w: number) => counts[known[w]!]!;
    const token = (w: number) => tokens[known[w]!]!;
    // The rarest word, the earliest of equals: soft matching drops the most common word first
    // (the later of equals), so this one is never dropped and every match holds it.
    let rarest = 0;
    for (let w = 1; w < plan.words.length; w++) if (found(w) < found(rarest)) rarest = w;
    const docs = (await this.#source.aggregate(candidatesPipeline(token(rarest), this.#limit))) as Candidate[];
    const { results, required } = rankCandidates(plan, docs.map(toAnalysed), found, { typos: false });
    if (found(rarest) <= this.#limit) return pageOf(results, results.length, plan, typed, query.offset, query.limit);
    const others = required.filter((w) => w !== rarest).map(token).sort();
    const counted = await this.#cache.get(version, `total ${token(rarest)} ${others.join(' ')}`, () => this.#count(totalPipeline(token(rarest), others)));
    return pageOf(results, Math.max(results.length, counted), plan, typed, query.offset, query.limit);
  }

  async #count(pipeline: Document[]): Promise<number> {
    const [row] = await this.#source.aggregate(pipeline);
    return Number(row?.['n'] ?? 0);
  }
}
