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
import type { EnginePage, EngineQuery } from '../../domain/search/engine.ts';
import { pageOf, rankCandidates, withKnownWords } from '../../domain/search/rank.ts';
import { CandidateEngine, toAnalysed, type Candidate } from './candidates.ts';
import { tokenOf } from './search.fields.ts';
import { candidatesPipeline, countPipeline, totalPipeline } from './text.pipeline.ts';

export class MongoTextEngine extends CandidateEngine {
  protected async answer(query: EngineQuery): Promise<EnginePage> {
    const version = await this.cache.version();
    const typed = query.plan;
    const tokens = typed.words.map((w) => tokenOf(w.text, query.state));
    const counts = await Promise.all(
      tokens.map((t) => this.cache.get(version, `count ${t}`, () => this.#count(countPipeline(t, this.limit + 1)))),
    );
    const words = withKnownWords(typed, counts);
    if (!words) return { total: 0, hits: [] };
    const { plan, known, found } = words;
    const token = (w: number) => tokens[known[w]!]!;
    // The rarest word, the earliest of equals: soft matching drops the most common word first
    // (the later of equals), so this one is never dropped and every match holds it.
    let rarest = 0;
    for (let w = 1; w < plan.words.length; w++) if (found(w) < found(rarest)) rarest = w;
    const docs = (await this.source.aggregate(candidatesPipeline(token(rarest), this.limit))) as Candidate[];
    const { results, required } = rankCandidates(plan, docs.map(toAnalysed), found, { typos: false });
    if (found(rarest) <= this.limit) return pageOf(results, results.length, plan, typed, query.offset, query.limit);
    const others = required
      .filter((w) => w !== rarest)
      .map(token)
      .sort();
    const counted = await this.cache.get(version, `total ${token(rarest)} ${others.join(' ')}`, () =>
      this.#count(totalPipeline(token(rarest), others)),
    );
    return pageOf(results, Math.max(results.length, counted), plan, typed, query.offset, query.limit);
  }

  async #count(pipeline: Document[]): Promise<number> {
    const [row] = await this.source.aggregate(pipeline);
    return Number(row?.['n'] ?? 0);
  }
}
