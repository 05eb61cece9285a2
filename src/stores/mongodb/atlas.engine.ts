// MONGODB_SEARCH=atlas: Atlas Search finds the candidates with the rules written in its own
// operators (atlas.pipeline.ts: fuzzy, autocomplete, synonyms, count), and the rules rank them
// (src/domain/search/rank.ts) from the stored source, without a second read of any document.
//
// Per query: each word's count (cached per catalog version); the words no school has are left
// out; the schools holding every remaining word are asked for (the best CANDIDATE_LIMIT by Atlas's
// score, and Atlas's total count); when there are none, the most common word is dropped and the
// question asked again, as soft matching does.
import type { EnginePage, EngineQuery, SearchEngine } from '../../domain/search/engine.ts';
import { withoutWords } from '../../domain/search/query.ts';
import { rankCandidates } from '../../domain/search/rank.ts';
import { atlasCandidatesPipeline, atlasCountPipeline } from './atlas.pipeline.ts';
import { CountCache, pageOf, toAnalysed, type Candidate } from './candidates.ts';
import { CANDIDATE_LIMIT, type CandidateEngineOptions, type SearchSource } from './text.engine.ts';

type AtlasCandidate = Candidate & { meta?: { count?: { total?: number } } };

export class MongoAtlasEngine implements SearchEngine {
  readonly #source: SearchSource;
  readonly #index: string;
  readonly #limit: number;
  readonly #cache: CountCache;

  constructor(source: SearchSource, index: string, options: CandidateEngineOptions = {}) {
    this.#source = source;
    this.#index = index;
    this.#limit = options.candidateLimit ?? CANDIDATE_LIMIT;
    this.#cache = new CountCache(() => source.catalogVersion(), options);
  }

  ready(): Promise<void> {
    return this.#source.ready();
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    const version = await this.#cache.version();
    const typed = query.plan;
    const counts = await Promise.all(
      typed.words.map((w) =>
        this.#cache.get(version, `count ${query.state ?? ''} ${w.text} ${w.last ? 'last' : ''}`, async () => {
          const [meta] = await this.#source.aggregate(atlasCountPipeline(this.#index, w, query.state, this.#limit + 1));
          return Number((meta?.['count'] as { lowerBound?: number } | undefined)?.lowerBound ?? 0);
        }),
      ),
    );
    const known = typed.words.map((_, w) => w).filter((w) => counts[w]! > 0);
    if (known.length === 0) return { total: 0, hits: [] };
    const plan = withoutWords(typed, known);
    const found = (w: number) => counts[known[w]!]!;
    let required = plan.words.map((_, w) => w);
    for (;;) {
      const docs = (await this.#source.aggregate(atlasCandidatesPipeline(this.#index, plan, required, query.state, this.#limit))) as AtlasCandidate[];
      if (docs.length > 0 || required.length === 1) {
        const { results } = rankCandidates(plan, docs.map(toAnalysed), found, { typos: true });
        const total = Number(docs[0]?.meta?.count?.total ?? 0);
        return pageOf(results, total <= this.#limit ? results.length : Math.max(results.length, total), plan, typed, query.offset, query.limit);
      }
      // No school holds them all: drop the most common word (the later of equals) and ask again.
      let drop = required[0]!;
      for (const w of required) if (found(w) >= found(drop)) drop = w;
      required = required.filter((w) => w !== drop);
    }
  }
}
