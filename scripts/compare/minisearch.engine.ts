// MiniSearch (https://lucaong.github.io/minisearch/, pinned in devDependencies) behind the
// SearchEngine port, configured as a competent engineer would configure it for a school-name
// typeahead, so that `npm run bench:compare` can measure it with the same quality classes and the
// same speed queries as the in-process index (src/search/memory/). Used by the comparison only:
// nothing in src/ imports it.
//
// The choices, one by one:
//   - fields: the name, the alternative names (joined by spaces: one text field) and the city;
//     the state is not a text field, it is a filter (as the contract's stateCode is).
//   - storeFields: what a hit must return (a School: id, name, city, state, imageUrl) and the
//     prominence, which boostDocument reads. MiniSearch keeps one small object per document.
//   - tokenize + processTerm: the core's own normalisation (src/domain/shared/normalize.ts):
//     words() folds (lower case, accents stripped, apostrophes removed: "Queen's" → queens) and
//     splits on anything that is not a letter or a digit, at index time and at query time alike.
//     MiniSearch's default tokenizer would split "Queen's" into queen + s before processTerm saw
//     it, so the folding tokenizer replaces it; processTerm then only re-folds (idempotent).
//   - with `synonyms: true` (the "MiniSearch + synonyms" variant), processTerm also indexes each
//     word's spellings and translations from the project's reviewed table (src/domain/search/
//     synonyms.ts: st ↔ saint, univ ↔ university ↔ université, …) and the tokenizer adds the
//     phrase abbreviations a name contains (Community College → cc). Index-time expansion is the
//     idiom MiniSearch documents for synonyms; the query side stays plain, so "st" still finds
//     "stanford" by prefix. Without it MiniSearch knows nothing of the table: the plain variant is
//     what the library gives out of the box with good normalisation.
//   - the query text: the plan's significant words (SearchPlan.words: folded, distinct, stop
//     words such as "of", "the", "de" left out), i.e. the same words the in-process index is
//     given. With combineWith AND a stop word absent from a name would otherwise veto it.
//   - prefix: true on every word (typeahead: any word may still be being typed).
//   - fuzzy: the project's typo budget of the word's length (typoBudget: 0 edits up to 4
//     letters, 1 from 5 to 8, 2 from 9). MiniSearch counts Levenshtein edits (a transposition is
//     2) against whole terms only (a typo inside a word still being typed is not forgiven).
//   - weights of prefix and fuzzy matches: MiniSearch's defaults (prefix 0.375, fuzzy 0.45,
//     decaying with the length difference), which the library tunes for this use.
//   - combineWith: 'AND' (every word must match), falling back to 'OR' when AND finds nothing:
//     the soft matching of our rules, in the form MiniSearch offers (OR then ranks by the number
//     of query words matched times BM25).
//   - boost: name 3, alternative names 2, city 1 (a word in the name counts most; a city word
//     least, so "lincoln" lists Lincoln schools before schools in Lincoln, NE). 2/1.5/1 and
//     5/3/1 were tried on the quality benchmark too: every class within a point of 3/2/1.
//   - boostDocument: 1 + prominence / 100 (×1 to ×2): among near-equal BM25 scores, the flagship
//     (prominence 80–100) beats its branches and small namesakes; a factor, not a sort key, so a
//     much better text match still wins. Tried on the quality benchmark: no boost (flagships
//     38 % @1), ×1–×1.5 (62 %), ×1–×2 (64 %), ×1–×3 (62 %), ×1–×4 (67 %, but exact and typo
//     classes lower); ×1–×2 was the best balance.
//   - filter: the state, when given (MiniSearch scores every match, then filters).
//   - paging: MiniSearch returns every match, scored and sorted; the page is a slice of it and
//     the total is the number of results. Its cost therefore grows with the number of matches,
//     not with the page: that is measured by the speed benchmark.
//   - score: MiniSearch's score divided by the best score of the query, in [0, 1], for display
//     only (the quality benchmark only looks at ranks).
import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import type { EngineHit, EnginePage, EngineQuery, SearchEngine } from '../../src/domain/search/engine.port.ts';
import { typoBudget } from '../../src/domain/search/query.ts';
import { fold, words } from '../../src/domain/shared/normalize.ts';
import { abbreviationsIn, synonymsOf, translationsOf } from '../../src/domain/search/synonyms.ts';

export interface MiniSearchOptions {
  /** Index the project's synonym table too (see above). */
  readonly synonyms?: boolean;
  /** boostDocument = 1 + prominenceWeight × prominence / 100 (default 1). */
  readonly prominenceWeight?: number;
  /** Field boosts (default name 3, aliases 2, city 1). */
  readonly boost?: { readonly name: number; readonly aliases: number; readonly city: number };
}

type Stored = Pick<CatalogSchool, 'name' | 'city' | 'state' | 'imageUrl' | 'prominence'>;

/** What a MiniSearch result carries: its id and the stored fields. */
type Result = SearchResult & Stored;

export interface MiniSearchPage extends EnginePage {
  /** Results MiniSearch built, scored and sorted to answer (all the matches, not only the page). */
  readonly materialized: number;
}

export class MiniSearchEngine implements SearchEngine {
  readonly #index: MiniSearch<CatalogSchool>;
  readonly #base: SearchOptions;

  constructor(rows: readonly CatalogSchool[], options: MiniSearchOptions = {}) {
    const synonyms = options.synonyms ?? false;
    const prominenceWeight = options.prominenceWeight ?? 1;
    this.#index = new MiniSearch<CatalogSchool>({
      idField: 'id',
      fields: ['name', 'aliases', 'city'],
      storeFields: ['name', 'city', 'state', 'imageUrl', 'prominence'],
      extractField: (doc, field) => {
        const value = (doc as unknown as Record<string, unknown>)[field];
        return field === 'aliases' ? (value as readonly string[]).join(' ') : value;
      },
      tokenize: synonyms
        ? (text) => {
            const ws = words(text);
            return [...ws, ...abbreviationsIn(ws)];
          }
        : words,
      processTerm: synonyms
        ? (term) => {
            const w = fold(term);
            return w ? [w, ...synonymsOf(w), ...translationsOf(w)] : null;
          }
        : (term) => fold(term) || null,
      searchOptions: {
        tokenize: words,
        processTerm: (term) => fold(term) || null,
      },
    });
    this.#index.addAll(rows as CatalogSchool[]);
    const boost = options.boost ?? { name: 3, aliases: 2, city: 1 };
    this.#base = {
      prefix: true,
      fuzzy: (term) => typoBudget(term.length),
      boost: { ...boost },
      boostDocument: (_id, _term, stored) =>
        1 + (prominenceWeight * ((stored?.['prominence'] as number | undefined) ?? 0)) / 100,
    };
  }

  get size(): number {
    return this.#index.documentCount;
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    return this.searchSync(query);
  }

  /** The search itself (MiniSearch is synchronous): what the speed benchmark times. */
  searchSync(query: EngineQuery): MiniSearchPage {
    const text = query.plan.words.map((w) => w.text).join(' ');
    if (text === '') return { total: 0, hits: [], materialized: 0 };
    const state = query.stateCode;
    const options: SearchOptions =
      state === undefined ? this.#base : { ...this.#base, filter: (r) => r['state'] === state };
    let results = this.#index.search(text, { ...options, combineWith: 'AND' }) as Result[];
    if (results.length === 0 && query.plan.words.length > 1)
      results = this.#index.search(text, { ...options, combineWith: 'OR' }) as Result[];
    const top = results[0]?.score ?? 1;
    const hits: EngineHit[] = results.slice(query.offset, query.offset + query.limit).map((r) => ({
      school: { id: r.id as string, name: r.name, city: r.city, state: r.state, imageUrl: r.imageUrl },
      score: r.score / top,
    }));
    return { total: results.length, hits, materialized: results.length };
  }
}
