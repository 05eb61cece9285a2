// The layout of an index (build.ts makes it; the search reads it): its arrays and the constants
// both sides share.
import { STATE_CODES } from '../../domain/catalog/states.ts';
import { STOP_WORDS } from '../../domain/search/synonyms.ts';
import type { ReverseTrie } from './reverse-trie.ts';
import type { Trie } from './trie.ts';

/** The fields of each document in the packed text (catalog-view.ts), in this order. */
export const TEXT_FIELDS = ['id', 'name', 'city', 'imageUrl', 'aliases', 'location'] as const;
/** Separates alternative names in the `aliases` field (never in a name: names are trimmed text). */
export const ALIAS_SEPARATOR = '\u001f';
/**
 * The `location` field is address and postal code joined by this, or empty when neither is
 * known: an unknown location costs no byte, and nothing of it is indexed. The coordinates are
 * numbers of their own (docLat, docLon).
 */
export const LOCATION_SEPARATOR = '\u001f';

/** The small words a name may begin with (synonyms.ts, STOP_WORDS), numbered from 1 in docLead and leadSets. */
export const LEAD_WORDS: readonly string[] = [...STOP_WORDS];

/** The docLead code of up to MAX_LEAD leading small words (0 when the first is none). */
export function leadCode(lead: readonly string[]): number {
  let code = 0;
  for (let i = 0; i < lead.length && i < 2; i++) {
    const n = LEAD_WORDS.indexOf(lead[i]!) + 1;
    if (n === 0) break;
    code |= n << (8 * i);
  }
  return code;
}

/** An unused nameAlt slot. */
export const NO_START = 255;

export const STATE_LIST: readonly string[] = [...STATE_CODES];

/** A trie node whose range holds at least this many terms gets a list of its own (the union of its terms'). */
export const MATERIALIZE_MIN_TERMS = 8;

/**
 * An index: typed arrays only (transferable between threads) and two counts; its trie's arrays
 * are the vocabulary's, its reverse trie's those of the vocabulary spelled backwards (typos.ts).
 */
export interface IndexData extends Trie, ReverseTrie {
  readonly docCount: number;
  readonly termCount: number;
  /** The catalog row of each document (documents are in the static order). */
  readonly order: Uint32Array;
  /** Index into STATE_LIST of each document's state. */
  readonly docState: Uint8Array;
  /** Each document's level, grades, type and tags, packed (kind-bits.ts). */
  readonly docKind: Uint32Array;
  /** One bitset per entry of STATE_LIST, each wordsFor(docCount) words. */
  readonly stateSets: Uint32Array;
  /** One bitset per level (school-kind.ts, LEVELS) and per type a search asks for (filters.ts, TYPE_FILTERS), the same size. */
  readonly levelSets: Uint32Array;
  readonly typeSets: Uint32Array;
  /**
   * Each document's latitude and longitude, NaN when unknown: the catalog's own doubles (not
   * their text, not 32 bits), so that distances are the reference engine's to the bit.
   */
  readonly docLat: Float64Array;
  readonly docLon: Float64Array;
  /**
   * The grid of the documents that have coordinates (geo-grid.ts): the keys (row × columns +
   * column) of the cells that hold any, ascending; cell i's documents are
   * geoDocs[geoCellStart[i] .. geoCellStart[i + 1] - 1], ascending.
   */
  readonly geoCell: Uint32Array;
  readonly geoCellStart: Uint32Array;
  readonly geoDocs: Uint32Array;

  /** The list holding the union of the node's terms' documents, or -1 (then take its terms' lists). */
  readonly nodeList: Int32Array;

  /** Lists 0..termCount-1 are the terms'; the rest are nodes'. */
  readonly listCount: Uint32Array;
  /** Where a sparse list starts in `sparse` (its length is listCount). */
  readonly listStart: Uint32Array;
  /** Where a dense list's bitset starts in `dense`, or -1 when the list is sparse. */
  readonly listDense: Int32Array;
  readonly sparse: Uint32Array;
  readonly dense: Uint32Array;

  /** Each document's entries (term id << 2 | field) are fwd[fwdStart[d] .. fwdStart[d+1]-1]. */
  readonly fwdStart: Uint32Array;
  readonly fwd: Uint32Array;
  /** Each document's name words in order, stop words left out (matching.ts, nameWords), as term ids: nameSeq[nameStart[d] ..]. */
  readonly nameStart: Uint32Array;
  readonly nameSeq: Uint32Array;
  /**
   * Where else each document's name may be typed from (matching.ts, nameStarts, past the first
   * word): two offsets into its nameSeq per document, NO_START when there are fewer.
   */
  readonly nameAlt: Uint8Array;
  /**
   * Each document's name's first two folded words when they are small words (leadCode: the first
   * in the low byte, 0 when it is none), and one bitset per LEAD_WORDS entry of the documents whose
   * name begins with it: ranking-rules.ts, step 5′ (the grade's lowest bit, the walk's L groups).
   */
  readonly docLead: Uint16Array;
  readonly leadSets: Uint32Array;
  /**
   * The documents whose name may start with each term (nameSeq at 0 or at a nameAlt offset): firstDocs[firstStart[t] ..
   * firstStart[t+1]-1], ascending. Which documents can start with a query.
   */
  readonly firstStart: Uint32Array;
  readonly firstDocs: Uint32Array;
  /**
   * MAX_QUERY_WORDS bitsets of wordsFor(docCount) words: set k-1 holds the documents whose name
   * has at most k words (nameSeq). Which documents a query of k words can spell out whole.
   */
  readonly lengthSets: Uint32Array;

  /**
   * What the page shows of each document, packed (packed-catalog.ts, catalog-view.ts): UTF-8
   * text, TEXT_FIELDS fields per catalog row, in row order: field f of document d at
   * textStart[r * F + f] .. textStart[r * F + f + 1] with r = order[d] (F = TEXT_FIELDS.length).
   */
  readonly text: Uint8Array;
  readonly textStart: Uint32Array;

  /** Equality keys by hash (ascending), with the document and 2 (name), 3 (a distinctive part of the name, equal to it: matching.ts, distinctiveKeys), 4 (the name without "School": analysis.ts, keyWithoutSchool), 5 (the name in reading order: analysis.ts, readingOrderKey) or 1 (alternative name). */
  readonly eqHash: Uint32Array;
  readonly eqDoc: Uint32Array;
  readonly eqField: Uint8Array;

  /** Each document's prominence: with its name and id, where it stands in the static order beside another index's (a delta's). */
  readonly docProminence: Float64Array;
  /** The documents by the hash (hash32) of their id, ascending, then by document: which documents a delta replaces. */
  readonly idHash: Uint32Array;
  readonly idDoc: Uint32Array;
}
