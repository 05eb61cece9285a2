// The Atlas Search queries of the Atlas engine (atlas.engine.ts): the search rules written with
// Atlas's own operators over the fields search-fields.ts derives (index:
// atlas-search-index.json). Per query word, the ways it may match, each scored by the credit
// the rules give it (ranking-rules.ts): as a whole term or one of its synonyms (`text` given the
// word and its synonyms, as the plan has them: query.ts), as a translation (`text` given its
// translations), as the start of a term
// (`autocomplete`), with typos (`fuzzy` with the word's own budget, and `wildcard` patterns of the
// longer terms the rules forgive more: atlas-typos.ts), and the word being typed also as a start
// with typos (`autocomplete` with `fuzzy`); in the name, the alternative names, and (weaker) the
// city. Each way matches exactly the terms the rules match that way, so that Atlas's counts and
// totals are the rules' (docs/search.md says where they still differ). Equality (the query *is*
// the name) is a large constant, prominence a small boost that only orders equals (with `near`,
// being ranked, then the proximity to the point instead, as the rules order equals by distance). Atlas's scores
// choose which candidates are read; the rules then rank them exactly (rank-candidates.ts), from the stored
// source. The scope (scope.ts) is the compound's filter: `equals` and `in` on tokens, a
// `geoWithin` circle a little larger than a radius, and after $search the exact radius check as a
// $match on stored source.
import type { Document } from 'mongodb';
import type { SearchScope } from '../../domain/search/filters.ts';
import type { QueryWord, SearchPlan } from '../../domain/search/query.ts';
import { credit, Field, Kind } from '../../domain/search/ranking-rules.ts';
import { beyondGrams, FUZZY_MAX_EXPANSIONS, fuzzyEdits, longerTermPatterns, startPattern } from './atlas-typos.ts';
import { CANDIDATE_FIELDS } from './candidates.ts';
import { atlasNear, atlasScopeFilter, exactMatch } from './scope.ts';

const PATHS = [
  [Field.Name, 'search.name'],
  [Field.Alias, 'search.aliases'],
  [Field.City, 'search.city'],
] as const;

/** Scores of equality: above anything the words can add up to. */
const NAME_EQUALITY = 10_000;
const ALIAS_EQUALITY = 5_000;

const constant = (value: number) => ({ constant: { value } });

/**
 * With `near`, what puts a ranked school (prominence above 0) before an unranked one among
 * equals, above any proximity (atlasNear: at most 0.49). Without it the prominence boost does.
 */
const RANKED_FIRST = { range: { path: 'prominence', gt: 0, score: constant(0.5) } };

/**
 * Any of these whole terms (the keyword analyzer: each query string is one term, and `text`
 * matches a document holding any of them). The word's synonyms and translations are the
 * plan's (query.ts, from the reviewed table synonyms.ts), given here rather than read by Atlas
 * from synonym mappings: the rules' own, with no collection to load, and no mapping, of which the
 * shared tiers (M0, Flex) allow only one (issue 43, L2).
 */
function anyTerm(path: string, terms: readonly string[], score: number): Document {
  return { text: { path, query: terms.length === 1 ? terms[0] : [...terms], score: constant(score) } };
}

/** Every way one word may match, each scored by its credit. */
export function wordClause(word: QueryWord): Document {
  const should: Document[] = [];
  const edits = fuzzyEdits(word.text);
  const longer = longerTermPatterns(word.text);
  const beyond = beyondGrams(word.text);
  const fuzzy = (maxEdits: number) => ({ maxEdits, prefixLength: 0, maxExpansions: FUZZY_MAX_EXPANSIONS });
  for (const [field, path] of PATHS) {
    should.push(anyTerm(path, [word.text, ...word.synonyms], credit(Kind.Exact, field)));
    if (word.translations.length > 0) should.push(anyTerm(path, word.translations, credit(Kind.Translation, field)));
    const prefix = constant(credit(Kind.Prefix, field));
    should.push(
      beyond
        ? { wildcard: { path, query: startPattern(word.text), allowAnalyzedField: true, score: prefix } }
        : { autocomplete: { path, query: word.text, score: prefix } },
    );
    const typo = constant(credit(Kind.Typo, field));
    if (edits > 0) should.push({ text: { path, query: word.text, fuzzy: fuzzy(edits), score: typo } });
    if (longer.length > 0) should.push({ wildcard: { path, query: longer, allowAnalyzedField: true, score: typo } });
    // Beyond the grams, Atlas would look for typos of the word's first 15 letters: not asked (docs/search.md).
    if (word.last && word.typos > 0 && !beyond) {
      should.push({ autocomplete: { path, query: word.text, fuzzy: fuzzy(word.typos), score: typo } });
    }
  }
  return { compound: { should, minimumShouldMatch: 1 } };
}

function equality(plan: SearchPlan): Document[] {
  if (plan.canonical === '') return [];
  return [
    { equals: { path: 'search.nameKey', value: plan.canonical, score: constant(NAME_EQUALITY) } },
    { equals: { path: 'search.aliasKeys', value: plan.canonical, score: constant(ALIAS_EQUALITY) } },
  ];
}

function scopeFilter(scope: SearchScope): Document {
  const filter = atlasScopeFilter(scope);
  return filter.length === 0 ? {} : { filter };
}

/**
 * How many schools in scope one word matches, counted no further than `threshold`: Atlas's
 * count, or with a radius the schools that pass the exact check after Atlas's wider circle
 * (each row's `n`, else `count.lowerBound`: atlasCount reads either).
 */
export function atlasCountPipeline(index: string, word: QueryWord, scope: SearchScope, threshold: number): Document[] {
  const compound = { must: [wordClause(word)], ...scopeFilter(scope) };
  const exact = exactMatch(scope);
  if (!exact) return [{ $searchMeta: { index, compound, count: { type: 'lowerBound', threshold } } }];
  return [{ $search: { index, compound, returnStoredSource: true } }, exact, { $limit: threshold }, { $count: 'n' }];
}

/**
 * How many schools in scope hold the word, every one counted (`total`, not a lower bound):
 * soft matching between counts that reached the threshold (candidates.ts, exactFound).
 */
export function atlasWordTotalPipeline(index: string, word: QueryWord, scope: SearchScope): Document[] {
  const compound = { must: [wordClause(word)], ...scopeFilter(scope) };
  const exact = exactMatch(scope);
  if (!exact) return [{ $searchMeta: { index, compound, count: { type: 'total' } } }];
  return [{ $search: { index, compound, returnStoredSource: true } }, exact, { $count: 'n' }];
}

/** The count a row of atlasCountPipeline, atlasWordTotalPipeline or atlasTotalPipeline gives. */
export function atlasCount(row: Document | undefined): number {
  const count = row?.['count'] as { lowerBound?: number; total?: number } | undefined;
  return Number(row?.['n'] ?? count?.total ?? count?.lowerBound ?? 0);
}

/**
 * The best `limit` schools in scope holding every word of `words`, by Atlas's score with
 * prominence as a boost (with `near`, the proximity instead), each with the total count of them
 * (`meta`; with a radius, of the wider circle's: atlasTotalPipeline counts exactly), read from
 * the stored source.
 */
export function atlasCandidatesPipeline(
  index: string,
  plan: SearchPlan,
  words: readonly number[],
  scope: SearchScope,
  limit: number,
): Document[] {
  const near = atlasNear(scope);
  const exact = exactMatch(scope);
  return [
    {
      $search: {
        index,
        compound: {
          must: words.map((w) => wordClause(plan.words[w]!)),
          // With near, a ranked school's 0.5 and the proximity's 0–0.49 are below any credit: they
          // order equals only, ranked first (ranking-rules.ts, step 4′), then nearest first.
          should: [...equality(plan), ...(near ? [near, RANKED_FIRST] : [])],
          ...scopeFilter(scope),
          // Prominence 0–100 adds at most 1: less than any credit, so it orders equals only.
          ...(near
            ? {}
            : {
                score: {
                  function: {
                    add: [
                      { score: 'relevance' },
                      { multiply: [{ path: { value: 'prominence', undefined: 0 } }, { constant: 0.01 }] },
                    ],
                  },
                },
              }),
        },
        count: { type: 'total' },
        returnStoredSource: true,
      },
    },
    ...(exact ? [exact] : []),
    { $limit: limit },
    { $project: { ...CANDIDATE_FIELDS, meta: '$$SEARCH_META' } },
  ];
}

/**
 * How many schools in scope hold every word of `words`, exactly: with a radius, Atlas's count is
 * of its wider circle, so the schools that pass the exact check are counted (every one read from
 * stored source; the engine caches the count per catalog version and scope).
 */
export function atlasTotalPipeline(
  index: string,
  plan: SearchPlan,
  words: readonly number[],
  scope: SearchScope,
): Document[] {
  const compound = { must: words.map((w) => wordClause(plan.words[w]!)), ...scopeFilter(scope) };
  const exact = exactMatch(scope);
  return [{ $search: { index, compound, returnStoredSource: true } }, ...(exact ? [exact] : []), { $count: 'n' }];
}
