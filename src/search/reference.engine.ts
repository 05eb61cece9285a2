// The search semantics evaluated literally: every school, every term, every word, then a full
// sort (src/domain/search/rank.ts). Slow (it reads the whole catalog for every query) and
// obviously right; the property tests hold the fast engines to it, and the quality benchmark can
// run it. `typos: false` is what an engine without typo matching (MongoDB's $text) must equal.
import type { CatalogSchool, EngineHit, EnginePage, EngineQuery, SearchEngine } from '../domain/search/engine.ts';
import { withoutWords } from '../domain/search/query.ts';
import { analyse, bestCredit, rankCandidates, type Analysed, type RankOptions } from '../domain/search/rank.ts';
import { similarityScore } from '../domain/search/ranking.ts';

export class ReferenceEngine implements SearchEngine {
  readonly #entries: readonly Analysed[];
  readonly #options: RankOptions;

  constructor(catalog: readonly CatalogSchool[], options: RankOptions = { typos: true }) {
    this.#entries = catalog.map(analyse);
    this.#options = options;
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    const entries = this.#entries.filter((e) => query.state === undefined || e.school.state === query.state);
    const found = (w: number, plan = query.plan) => entries.filter((e) => bestCredit(plan.words[w]!, e, this.#options) > 0).length;
    // Words no school has are left out as if not typed (they still count in the score).
    const typed = query.plan;
    const plan = withoutWords(typed, typed.words.map((_, w) => w).filter((w) => found(w) > 0));
    const counts = plan.words.map((_, w) => found(w, plan));
    const { results } = rankCandidates(plan, entries, (w) => counts[w]!, this.#options);
    const hits: EngineHit[] = results.slice(query.offset, query.offset + query.limit).map(({ entry, quality }) => ({
      school: { id: entry.school.id, name: entry.school.name, city: entry.school.city, state: entry.school.state, imageUrl: entry.school.imageUrl },
      score: similarityScore(quality, plan.words.length, typed.words.length),
    }));
    return { total: results.length, hits };
  }
}
