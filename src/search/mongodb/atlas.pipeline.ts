// The Atlas Search queries of the Atlas engine (atlas.engine.ts): the search rules written with
// Atlas's own operators over the fields search.fields.ts derives (index:
// schools.search-index.json). Per query word, the ways it may match, each scored by the credit
// the rules give it (ranking.ts): as a whole term or one of its synonyms (`text` with the `words`
// synonym mapping), as a translation (`translations` mapping), as the start of a term
// (`autocomplete`), with typos (`fuzzy`, maxEdits by the word's length, as typoBudget), and the
// word being typed also as a start with typos (`autocomplete` with `fuzzy`); in the name, the
// alternative names, and (weaker) the city. Equality (the query *is* the name) is a large
// constant, prominence a small boost that only orders equals (with `near`, the proximity to the
// point instead, as the rules order equals by distance). Atlas's scores choose which candidates
// are read; the rules then rank them exactly (rank.ts), from the stored source. The scope
// (scope.ts) is the compound's filter: `equals` and `in` on tokens, a `geoWithin` circle a little
// larger than a radius, and after $search the exact radius check as a $match on stored source.
import type { Document } from 'mongodb';
import type { SearchScope } from '../../domain/search/filters.ts';
import type { QueryWord, SearchPlan } from '../../domain/search/query.ts';
import { typoBudget } from '../../domain/search/query.ts';
import { credit, Field, Kind } from '../../domain/search/ranking.ts';
import { CANDIDATE_FIELDS } from './candidates.ts';
import { atlasNear, atlasScopeFilter, exactMatch } from './scope.ts';

/** The synonym mappings of the index, loaded from the reviewed table (synonyms.ts) by `school-search indexes`. */
export const SYNONYM_MAPPINGS = { words: 'words', translations: 'translations' } as const;

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
 * Edits Atlas forgives in a whole term for a word of this length: the rules' budget goes by the
 * longer of word and term (query.ts, typoBudget), so a term one letter longer may allow one more;
 * the rules then check each candidate's typos exactly.
 */
export function fuzzyEdits(word: string): number {
  return typoBudget([...word].length + 1);
}

/** Every way one word may match, each scored by its credit. */
export function wordClause(word: QueryWord): Document {
  const should: Document[] = [];
  for (const [field, path] of PATHS) {
    should.push({
      text: { path, query: word.text, synonyms: SYNONYM_MAPPINGS.words, score: constant(credit(Kind.Exact, field)) },
    });
    if (word.translations.length > 0) {
      should.push({
        text: {
          path,
          query: word.text,
          synonyms: SYNONYM_MAPPINGS.translations,
          score: constant(credit(Kind.Translation, field)),
        },
      });
    }
    should.push({ autocomplete: { path, query: word.text, score: constant(credit(Kind.Prefix, field)) } });
    const edits = fuzzyEdits(word.text);
    if (edits > 0)
      should.push({
        text: {
          path,
          query: word.text,
          fuzzy: { maxEdits: edits, prefixLength: 0 },
          score: constant(credit(Kind.Typo, field)),
        },
      });
    if (word.last && word.typos > 0) {
      should.push({
        autocomplete: {
          path,
          query: word.text,
          fuzzy: { maxEdits: word.typos, prefixLength: 0 },
          score: constant(credit(Kind.Typo, field)),
        },
      });
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

/** The count a row of atlasCountPipeline or atlasTotalPipeline gives. */
export function atlasCount(row: Document | undefined): number {
  return Number(row?.['n'] ?? (row?.['count'] as { lowerBound?: number } | undefined)?.lowerBound ?? 0);
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
          // Proximity (0–0.99) is a score below any credit: it orders equals only, nearest first.
          should: [...equality(plan), ...(near ? [near] : [])],
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
