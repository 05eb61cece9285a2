// MONGODB_SEARCH=atlas: Atlas Search finds the candidates with the rules written in its own
// operators (atlas.pipeline.ts: fuzzy, autocomplete, synonyms, count), and the rules rank them
// (src/domain/search/rank.ts) from the stored source, without a second read of any document.
//
// Per query: each word's count (cached per catalog version); the words no school has are left
// out; the schools holding every remaining word are asked for (the best CANDIDATE_LIMIT by Atlas's
// score, and Atlas's total count); when there are none, the most common word is dropped and the
// question asked again, as soft matching does.
import type { EnginePage, EngineQuery } from '../../domain/search/engine.ts';
import { mostCommon, pageOf, rankCandidates, withKnownWords } from '../../domain/search/rank.ts';
import { atlasCandidatesPipeline, atlasCountPipeline } from './atlas.pipeline.ts';
import {
  CandidateEngine,
  toAnalysed,
  type Candidate,
  type CandidateEngineOptions,
  type SearchSource,
} from './candidates.ts';

type AtlasCandidate = Candidate & { meta?: { count?: { total?: number } } };

export class MongoAtlasEngine extends CandidateEngine {
  readonly #index: string;

  constructor(source: SearchSource, index: string, options: CandidateEngineOptions = {}) {
    super(source, options);
    this.#index = index;
  }

  protected async answer(query: EngineQuery): Promise<EnginePage> {
    const version = await this.cache.version();
    const typed = query.plan;
    const counts = await Promise.all(
      typed.words.map((w) =>
        this.cache.get(version, `count ${query.state ?? ''} ${w.text} ${w.last ? 'last' : ''}`, async () => {
          const [meta] = await this.source.aggregate(atlasCountPipeline(this.#index, w, query.state, this.limit + 1));
          return Number((meta?.['count'] as { lowerBound?: number } | undefined)?.lowerBound ?? 0);
        }),
      ),
    );
    const words = withKnownWords(typed, counts);
    if (!words) return { total: 0, hits: [] };
    const { plan, found } = words;
    let required = plan.words.map((_, w) => w);
    for (;;) {
      const docs = (await this.source.aggregate(
        atlasCandidatesPipeline(this.#index, plan, required, query.state, this.limit),
      )) as AtlasCandidate[];
      if (docs.length > 0 || required.length === 1) {
        const { results } = rankCandidates(plan, docs.map(toAnalysed), found, { typos: true });
        const total = Number(docs[0]?.meta?.count?.total ?? 0);
        return pageOf(
          results,
          total <= this.limit ? results.length : Math.max(results.length, total),
          plan,
          typed,
          query.offset,
          query.limit,
        );
      }
      // No school holds them all: drop the most common word (the later of equals) and ask again.
      const drop = mostCommon(required, found);
      required = required.filter((w) => w !== drop);
    }
  }
}
