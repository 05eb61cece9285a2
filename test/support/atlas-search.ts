// A stand-in of Atlas Search (mongot) for the Atlas engine's tests: the index the committed
// definition describes (src/search/mongodb/atlas-search-index.json), built over the schools'
// documents, and the operators the engine sends, each evaluated by Atlas's documented semantics
// (Lucene's, where Atlas names them), never by the search rules. No Atlas runs here; what each
// part models, and from which page:
//
// - string fields with `lucene.keyword`: each value one term. `text` looks each query string up
//   as one term (keyword analyzer), matching a document that holds any of them; the index has no
//   synonym mappings, so a query naming one is refused, as Atlas refuses it
//   (https://www.mongodb.com/docs/atlas/atlas-search/text/).
// - `fuzzy` (text and autocomplete) is Lucene's FuzzyQuery: terms within `maxEdits` (1 or 2) by
//   optimal string alignment over code points (a transposed pair is one edit), sharing the first
//   `prefixLength` letters, of which only the best `maxExpansions` (default 50, at most Lucene's
//   1,024 clauses) are searched: fewest edits first (boost 1 − edits / the shorter length), then
//   byte order (Lucene FuzzyQuery, FuzzyTermsEnum, TopTermsRewrite).
// - autocomplete fields (`edgeGram`, keyword analyzer): each value's first minGrams…maxGrams
//   letters; a query longer than maxGrams is truncated to it (Atlas docs, autocomplete type).
// - `wildcard` over a string field's terms: `?` one letter, `*` any run, `\` escapes.
// - `equals` and `in` on token fields (an array matches by any element), `exists`, `geoWithin`
//   with a circle (haversine on Lucene's mean Earth radius, in metres, unrounded), `near` scored
//   pivot / (pivot + distance), `compound` summing its clauses' scores, the `score` options,
//   `count`, stored source, and after $search the stages run by mingo over stored source.
// - an index that does not exist answers nothing, not an error (Atlas docs, $search `index`).
//
// The queries' shape is checked in test/stores/mongodb-pieces.test.ts; their meaning on Atlas
// itself only by the GitHub workflow's Atlas job, when one is configured.
import { Aggregator, Query } from 'mingo';
import type { Document } from 'mongodb';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import type { SearchedSchool } from '../../src/search/mongodb/search-fields.ts';
import { searchIndexDefinition } from '../../src/search/mongodb/atlas-search-index.ts';

/** Lucene's (Atlas Search's) mean Earth radius, in metres. */
const LUCENE_EARTH_RADIUS_M = 6_371_008.7714;
/** IndexSearcher's default clause limit: a fuzzy query's expansions never exceed it. */
const LUCENE_MAX_CLAUSES = 1024;
const DEFAULT_MAX_EXPANSIONS = 50;

/** Documents matched, each with its score. */
type Hits = Map<number, number>;
type Postings = Map<string, Set<number>>;

interface StringField {
  readonly terms: Postings;
  readonly analyzer: string;
}
interface AutocompleteField {
  readonly grams: Postings;
  readonly maxGrams: number;
}

export interface AtlasStandInOptions {
  /** The index's name: asked for any other, Atlas answers nothing. */
  readonly index?: string;
}

export interface AtlasStandIn {
  /** Every pipeline asked, in order. */
  readonly asked: Document[][];
  aggregate(pipeline: Document[]): Promise<Document[]>;
  catalogVersion(): Promise<string>;
  /** As the store's readiness check: fails while the index does not exist. */
  ready(): Promise<void>;
  /** Deletes the index (Atlas then answers every query with nothing) or creates it again. */
  setIndexExists(exists: boolean): void;
}

export async function atlasSearchStandIn(
  documents: readonly SearchedSchool[],
  options: AtlasStandInOptions = {},
): Promise<AtlasStandIn> {
  const name = options.index ?? 'schools_search';
  const { definition } = searchIndexDefinition(name);
  const stored: readonly string[] = definition['storedSource'].include;
  const strings = new Map<string, StringField>();
  const autocompletes = new Map<string, AutocompleteField>();
  mapFields(definition['mappings'].fields, '', documents, strings, autocompletes);
  if (definition['synonyms'] !== undefined) throw new Error('the index has synonym mappings: update the stand-in');
  const all = () => new Set(documents.keys());
  let exists = true;
  const asked: Document[][] = [];

  const stringField = (path: string) => {
    const field = strings.get(path);
    if (!field) throw new Error(`no string mapping for ${path}: Atlas would refuse the query`);
    return field;
  };
  const autocompleteField = (path: string) => {
    const field = autocompletes.get(path);
    if (!field) throw new Error(`no autocomplete mapping for ${path}: Atlas would refuse the query`);
    return field;
  };
  const paths = (path: unknown): string[] => (Array.isArray(path) ? path : [String(path)]);
  const queries = (query: unknown): string[] => (Array.isArray(query) ? query : [String(query)]);
  const docsOf = (postings: Postings, terms: Iterable<string>) => {
    const out = new Set<number>();
    for (const t of terms) for (const d of postings.get(t) ?? []) out.add(d);
    return out;
  };
  const scored = (docs: Iterable<number>, score = 1): Hits => new Map([...docs].map((d) => [d, score]));

  function text(spec: Document): Hits {
    if (spec['synonyms']) throw new Error(`no synonym mapping ${spec['synonyms']}: Atlas would refuse the query`);
    const docs = new Set<number>();
    for (const path of paths(spec['path'])) {
      const field = stringField(path);
      // The keyword analyzer: each query string is one term.
      const sets = queries(spec['query']).map((term) => {
        if (spec['fuzzy']) return docsOf(field.terms, fuzzyTerms(field.terms, term, spec['fuzzy']));
        return docsOf(field.terms, [term]);
      });
      // "all" needs every term; otherwise any of them.
      const every = spec['matchCriteria'] === 'all';
      const found = every ? intersection(sets) : union(sets);
      for (const d of found) docs.add(d);
    }
    return scored(docs);
  }

  function autocomplete(spec: Document): Hits {
    const docs = new Set<number>();
    for (const path of paths(spec['path'])) {
      const field = autocompleteField(path);
      // The keyword analyzer: one token, truncated to maxGrams letters.
      const token = [...String(spec['query'])].slice(0, field.maxGrams).join('');
      const terms = spec['fuzzy'] ? fuzzyTerms(field.grams, token, spec['fuzzy']) : [token];
      for (const d of docsOf(field.grams, terms)) docs.add(d);
    }
    return scored(docs);
  }

  function wildcard(spec: Document): Hits {
    const docs = new Set<number>();
    for (const path of paths(spec['path'])) {
      const field = stringField(path);
      if (field.analyzer !== 'lucene.keyword' && spec['allowAnalyzedField'] !== true)
        throw new Error('wildcard on an analyzed field needs allowAnalyzedField: true');
      const patterns = queries(spec['query']).map(wildcardRegExp);
      const terms = [...field.terms.keys()].filter((t) => patterns.some((p) => p.test(t)));
      for (const d of docsOf(field.terms, terms)) docs.add(d);
    }
    return scored(docs);
  }

  function compound(spec: Document): Hits {
    const run = (key: string) => ((spec[key] ?? []) as Document[]).map(evaluate);
    const [must, filter, mustNot, should] = [run('must'), run('filter'), run('mustNot'), run('should')];
    // With nothing else required, one should clause must match.
    const needed = spec['minimumShouldMatch'] ?? (must.length + filter.length === 0 ? 1 : 0);
    const out: Hits = new Map();
    for (const d of all()) {
      if (!must.every((h) => h.has(d)) || !filter.every((h) => h.has(d)) || mustNot.some((h) => h.has(d))) continue;
      const matched = should.filter((h) => h.has(d));
      if (matched.length < needed) continue;
      out.set(
        d,
        [...must, ...matched].reduce((sum, h) => sum + h.get(d)!, 0),
      );
    }
    return out;
  }

  function evaluate(operator: Document): Hits {
    const [op, spec] = Object.entries(operator)[0] as [string, Document];
    const hits = ((): Hits => {
      switch (op) {
        case 'compound':
          return compound(spec);
        case 'text':
          return text(spec);
        case 'autocomplete':
          return autocomplete(spec);
        case 'wildcard':
          return wildcard(spec);
        case 'equals':
          return scored([...all()].filter((d) => values(valueAt(documents[d]!, spec['path'])).includes(spec['value'])));
        case 'in':
          return scored(
            [...all()].filter((d) =>
              values(valueAt(documents[d]!, spec['path'])).some((v) => (spec['value'] as unknown[]).includes(v)),
            ),
          );
        case 'range': {
          // Numbers only, as the index maps prominence: gt, gte, lt, lte.
          const { gt, gte, lt, lte } = spec as { gt?: number; gte?: number; lt?: number; lte?: number };
          return scored(
            [...all()].filter((d) => {
              const v = valueAt(documents[d]!, spec['path']);
              return (
                typeof v === 'number' &&
                (gt === undefined || v > gt) &&
                (gte === undefined || v >= gte) &&
                (lt === undefined || v < lt) &&
                (lte === undefined || v <= lte)
              );
            }),
          );
        }
        case 'exists':
          return scored([...all()].filter((d) => valueAt(documents[d]!, spec['path']) !== undefined));
        case 'geoWithin': {
          const { center, radius } = spec['circle'];
          return scored(
            [...all()].filter((d) => {
              const at = valueAt(documents[d]!, spec['path']) as { coordinates: number[] } | undefined;
              return at !== undefined && metres(center.coordinates, at.coordinates) <= radius;
            }),
          );
        }
        case 'near': {
          const out: Hits = new Map();
          for (const d of all()) {
            const at = valueAt(documents[d]!, spec['path']) as { coordinates: number[] } | undefined;
            if (at) out.set(d, spec['pivot'] / (spec['pivot'] + metres(spec['origin'].coordinates, at.coordinates)));
          }
          return out;
        }
        default:
          throw new Error(`operator ${op}: update the stand-in`);
      }
    })();
    return spec['score'] ? withScore(spec['score'], hits, documents) : hits;
  }

  /** The operator of a $search or $searchMeta stage (its only key besides the options). */
  const operatorOf = (stage: Document): Document => {
    const { index: _index, count: _count, returnStoredSource: _stored, ...operator } = stage;
    return operator;
  };

  const hitsOf = (stage: Document) =>
    [...evaluate(operatorOf(stage))]
      .map(([d, score]) => ({ doc: documents[d]!, score }))
      // By score; equal scores in the index's order (here: the id).
      .sort((a, b) => b.score - a.score || (a.doc._id < b.doc._id ? -1 : 1));

  return {
    asked,
    catalogVersion: async () => '1',
    async ready() {
      if (!exists) throw new StoreUnavailableError('The search index is unavailable.');
    },
    setIndexExists(value) {
      exists = value;
    },
    async aggregate(pipeline: Document[]): Promise<Document[]> {
      asked.push(pipeline);
      const [first, ...rest] = pipeline;
      const meta = first!['$searchMeta'];
      const search = first!['$search'];
      if (!meta && !search)
        throw new Error('every Atlas pipeline starts with $search or $searchMeta: update the stand-in');
      // A missing index (or another name): no results, no error.
      if (!exists || (meta ?? search)['index'] !== name) return [];
      if (meta) {
        const n = hitsOf(meta).length;
        if (meta.count.type === 'total') return [{ count: { total: n } }];
        return [{ count: { lowerBound: Math.min(n, meta.count.threshold) } }];
      }
      if (search.returnStoredSource !== true) throw new Error('the engine reads stored source only');
      const hits = hitsOf(search);
      const searchMeta = search.count?.type === 'total' ? { count: { total: hits.length } } : {};
      // Stored source: only the fields the index stores.
      let docs: Document[] = hits.map(({ doc }) =>
        Object.fromEntries(Object.entries(doc).filter(([k]) => k === '_id' || stored.includes(k))),
      );
      for (const stage of rest) {
        if (stage['$match']) docs = docs.filter((d) => new Query(stage['$match']).test(d));
        else if (stage['$limit'] !== undefined) docs = docs.slice(0, stage['$limit']);
        else if (stage['$count']) docs = [{ [stage['$count']]: docs.length }];
        else if (stage['$project']) {
          const { meta: _meta, ...fields } = stage['$project'];
          docs = new Aggregator([{ $project: { ...fields, meta: { $literal: searchMeta } } }]).run(docs) as Document[];
        } else throw new Error(`stage ${JSON.stringify(stage)}: update the stand-in`);
      }
      return docs;
    },
  };
}

/** The index's string and autocomplete fields, with their terms and grams, from the definition's mappings. */
function mapFields(
  fields: Document,
  prefix: string,
  documents: readonly SearchedSchool[],
  strings: Map<string, StringField>,
  autocompletes: Map<string, AutocompleteField>,
): void {
  for (const [key, mapping] of Object.entries(fields)) {
    const path = prefix + key;
    for (const type of Array.isArray(mapping) ? mapping : [mapping]) {
      if (type.type === 'document') mapFields(type.fields ?? {}, `${path}.`, documents, strings, autocompletes);
      if (type.type !== 'string' && type.type !== 'autocomplete') continue;
      const analyzer = type.analyzer ?? 'lucene.standard';
      if (analyzer !== 'lucene.keyword') throw new Error(`${path}: analyzer ${analyzer}: update the stand-in`);
      const postings: Postings = new Map();
      const add = (term: string, d: number) => (postings.get(term) ?? postings.set(term, new Set()).get(term)!).add(d);
      if (type.type === 'string') {
        documents.forEach((doc, d) => {
          for (const v of values(valueAt(doc, path))) add(String(v), d);
        });
        strings.set(path, { terms: postings, analyzer });
        continue;
      }
      if ((type.tokenization ?? 'edgeGram') !== 'edgeGram' || type.foldDiacritics !== false)
        throw new Error(`${path}: autocomplete ${JSON.stringify(type)}: update the stand-in`);
      const minGrams = type.minGrams ?? 2;
      const maxGrams = type.maxGrams ?? 15;
      documents.forEach((doc, d) => {
        for (const v of values(valueAt(doc, path))) {
          const letters = [...String(v)];
          for (let n = minGrams; n <= Math.min(maxGrams, letters.length); n++) add(letters.slice(0, n).join(''), d);
        }
      });
      autocompletes.set(path, { grams: postings, maxGrams });
    }
  }
}

/**
 * The terms Lucene's FuzzyQuery searches for `query`: those within maxEdits (optimal string
 * alignment over code points) sharing its first prefixLength letters, the best maxExpansions of
 * them by boost (1 for the term itself, else 1 − edits / the shorter length), then byte order.
 */
export function fuzzyTerms(dictionary: Postings, query: string, options: Document): string[] {
  const maxEdits = options['maxEdits'] ?? 2;
  const prefixLength = options['prefixLength'] ?? 0;
  const maxExpansions = options['maxExpansions'] ?? DEFAULT_MAX_EXPANSIONS;
  if (maxEdits !== 1 && maxEdits !== 2) throw new Error(`fuzzy.maxEdits ${maxEdits}: Atlas accepts 1 or 2`);
  if (!(Number.isInteger(maxExpansions) && maxExpansions > 0)) throw new Error(`fuzzy.maxExpansions ${maxExpansions}`);
  const q = [...query];
  // Nothing left to edit after the prefix: the term itself only.
  if (prefixLength >= q.length) return dictionary.has(query) ? [query] : [];
  const prefix = q.slice(0, prefixLength);
  const found: Array<{ term: string; boost: number }> = [];
  for (const term of dictionary.keys()) {
    const t = [...term];
    if (prefix.some((c, i) => t[i] !== c)) continue;
    const edits = osa(q, t, maxEdits);
    if (edits > maxEdits) continue;
    found.push({ term, boost: edits === 0 ? 1 : 1 - edits / Math.min(t.length, q.length) });
  }
  found.sort((a, b) => b.boost - a.boost || Buffer.compare(Buffer.from(a.term), Buffer.from(b.term)));
  return found.slice(0, Math.min(maxExpansions, LUCENE_MAX_CLAUSES)).map((f) => f.term);
}

/** Optimal string alignment distance of two letter lists, or max + 1 when over max. */
function osa(a: readonly string[], b: readonly string[], max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return Math.min(d[a.length]![b.length]!, max + 1);
}

/** A wildcard query as a regular expression over a whole term: `?` one letter, `*` any run, `\` escapes. */
export function wildcardRegExp(pattern: string): RegExp {
  let source = '';
  const letters = [...pattern];
  for (let i = 0; i < letters.length; i++) {
    const c = letters[i]!;
    if (c === '\\' && i + 1 < letters.length) source += escapeRegExp(letters[++i]!);
    else if (c === '?') source += '.';
    else if (c === '*') source += '.*';
    else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}$`, 'su');
}

const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function union(sets: readonly Set<number>[]): Set<number> {
  return new Set(sets.flatMap((s) => [...s]));
}

function intersection(sets: readonly Set<number>[]): Set<number> {
  const [first, ...rest] = sets;
  return new Set([...(first ?? [])].filter((d) => rest.every((s) => s.has(d))));
}

/** Metres between a GeoJSON point and another, as Atlas measures them. */
function metres(a: readonly number[], b: readonly number[]): number {
  const rad = Math.PI / 180;
  const [lon1, lat1] = [a[0]! * rad, a[1]! * rad];
  const [lon2, lat2] = [b[0]! * rad, b[1]! * rad];
  const h = Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
  return 2 * LUCENE_EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

function valueAt(doc: object, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], doc);
}

const values = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** An Atlas score function expression (add, multiply, constant, path, relevance). */
function scoreFunction(expression: Document, relevance: number, doc: object): number {
  if (expression['score'] === 'relevance') return relevance;
  if ('constant' in expression) return expression['constant'];
  if ('path' in expression) {
    const v = valueAt(doc, expression['path'].value);
    return typeof v === 'number' ? v : expression['path'].undefined;
  }
  if ('add' in expression)
    return expression['add'].reduce((sum: number, e: Document) => sum + scoreFunction(e, relevance, doc), 0);
  if ('multiply' in expression)
    return expression['multiply'].reduce((p: number, e: Document) => p * scoreFunction(e, relevance, doc), 1);
  throw new Error(`score function ${JSON.stringify(expression)}: update the stand-in`);
}

function withScore(options: Document, hits: Hits, documents: readonly SearchedSchool[]): Hits {
  const out: Hits = new Map();
  for (const [d, score] of hits) {
    if ('constant' in options) out.set(d, options['constant'].value);
    else if ('boost' in options) out.set(d, score * options['boost'].value);
    else if ('function' in options) out.set(d, scoreFunction(options['function'], score, documents[d]!));
    else throw new Error(`score ${JSON.stringify(options)}: update the stand-in`);
  }
  return out;
}
