// Whether two Atlas Search index definitions mean the same index. Atlas answers
// `$listSearchIndexes` with the definition it holds, in its own key order and with the options
// it defaulted spelled out (an autocomplete field's `foldDiacritics: true`, a string field's
// `indexOptions: "offsets"`, …), so comparing JSON text says "changed" on every run and
// `school-search indexes` would rebuild the index each time. Both sides are reduced to what
// differs from Atlas's documented defaults, with keys and multi-type field lists in a fixed order.
import type { Document } from 'mongodb';

const STANDARD = 'lucene.standard';

/** Options a field of each type takes when the definition leaves them out (Atlas Search docs). */
const FIELD_DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  autocomplete: { analyzer: STANDARD, tokenization: 'edgeGram', minGrams: 2, maxGrams: 15, foldDiacritics: true },
  string: { indexOptions: 'offsets', store: true, norms: 'include' },
  token: { normalizer: 'none' },
  geo: { indexShapes: false },
  number: { representation: 'double', indexIntegers: true, indexDoubles: true },
  document: { dynamic: false },
  embeddedDocuments: { dynamic: false },
};

export function sameSearchIndex(a: Document, b: Document): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The definition without defaulted options, keys sorted: equal exactly when the indexes are. */
export function canonical(definition: Document): unknown {
  const analyzer = typeof definition['analyzer'] === 'string' ? definition['analyzer'] : STANDARD;
  const { analyzer: _a, searchAnalyzer, mappings, storedSource, synonyms, ...rest } = definition;
  const index: Document = { ...rest };
  if (analyzer !== STANDARD) index['analyzer'] = analyzer;
  if (searchAnalyzer !== undefined && searchAnalyzer !== analyzer) index['searchAnalyzer'] = searchAnalyzer;
  if (storedSource !== undefined && storedSource !== false) index['storedSource'] = storedFields(storedSource);
  // Mappings are named: their order means nothing.
  if (Array.isArray(synonyms) && synonyms.length > 0) index['synonyms'] = [...synonyms].sort(byJson);
  index['mappings'] = mapping((mappings ?? {}) as Document, analyzer);
  return sorted(index);
}

/** Stored source: `true`, or the fields included or excluded, in any order. */
function storedFields(stored: unknown): unknown {
  if (!stored || typeof stored !== 'object') return stored;
  return Object.fromEntries(
    Object.entries(stored as Document).map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v]),
  );
}

/** A mappings object or a document field: `dynamic` defaults to false, each field reduced. */
function mapping(m: Document, analyzer: string): Document {
  const { dynamic, fields, ...rest } = m;
  const out: Document = { ...rest };
  if (dynamic !== undefined && dynamic !== false) out['dynamic'] = dynamic;
  if (fields && typeof fields === 'object') {
    out['fields'] = Object.fromEntries(
      Object.entries(fields as Document).map(([name, f]) => [
        name,
        // One type or several (a list, in any order).
        Array.isArray(f)
          ? f.map((one) => field(one as Document, analyzer)).sort(byJson)
          : field(f as Document, analyzer),
      ]),
    );
  }
  return out;
}

function field(f: Document, analyzer: string): Document {
  const type = String(f['type']);
  if (type === 'document' || type === 'embeddedDocuments') return { ...mapping(f, analyzer), type };
  const defaults: Record<string, unknown> = { ...FIELD_DEFAULTS[type] };
  // A string field analyses with the index's analyzer, and searches with its own analyzer.
  if (type === 'string') defaults['analyzer'] = analyzer;
  const fieldAnalyzer = f['analyzer'] ?? defaults['analyzer'];
  const out: Document = {};
  for (const [key, value] of Object.entries(f)) {
    if (key === 'searchAnalyzer' && value === fieldAnalyzer) continue;
    if (key in defaults && JSON.stringify(defaults[key]) === JSON.stringify(value)) continue;
    out[key] = value;
  }
  return out;
}

function byJson(a: unknown, b: unknown): number {
  const x = JSON.stringify(sorted(a));
  const y = JSON.stringify(sorted(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Document)[k])]),
    );
  }
  return value;
}
