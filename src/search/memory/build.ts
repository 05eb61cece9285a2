// Builds the in-process index of a catalog: plain typed arrays only, so that a worker thread can
// build it and hand it over without copying (see build.worker.ts), and so that it stays compact.
//
// Documents are numbered in the catalog's static order (prominence, then name, then id), so
// every list of documents in ascending order is already in the order ties are broken in.
//   - vocabulary: every term of every name, alternative name and city, sorted; a term's id is its
//     rank, so the terms starting with a prefix are one range of ids, found by walking the trie;
//     a second trie of the terms spelled backwards serves the typo walks (typos.ts);
//   - lists: the documents having each term, and for trie nodes with many terms below them the
//     union of their terms' documents (a short prefix is one list, not a thousand); a list with
//     more than one document in 32 is stored as a bitset, the rest as sorted arrays;
//   - forward index: each document's terms with the field (name, alternative name, city) they
//     are in, to grade a candidate without looking at its text;
//   - equality: a hash of each name's and alternative name's equality key;
//   - filters: one bitset per state, per level and per type a search asks for;
//   - places: each document's coordinates and a grid of cells listing them (geo-grid.ts).
import { canonicalKey, indexTerms, keyWithoutSchool } from '../../domain/search/analysis.ts';
import type { CatalogSchool } from '../../domain/search/engine.ts';
import { distinctiveKeys, nameStarts, nameWords } from '../../domain/search/matching.ts';
import { nameSortKey } from '../../domain/search/normalize.ts';
import { MAX_QUERY_WORDS } from '../../domain/search/query.ts';
import { compareStatic, Field } from '../../domain/search/ranking.ts';
import { LEVELS } from '../../domain/school.kind.ts';
import { TYPE_FILTERS } from '../../domain/search/filters.ts';
import { wordsFor } from './bitset.ts';
import { buildGeoGrid } from './geo-grid.ts';
import { MATERIALIZE_MIN_TERMS, NO_START, STATE_LIST, type IndexData } from './index-data.ts';
import { isKindOfType, levelIndexOf } from './kind-bits.ts';
import { packCatalog, type PackedCatalog, PackedRows } from './packed-catalog.ts';
import { buildReverseTrie } from './reverse-trie.ts';
import { buildTrie, childOf } from './trie.ts';
import { U32 } from './u32.ts';

export type { IndexData };

/** The typed arrays of an index (or of a packed catalog), to transfer them between threads. */
export function buffersOf(data: IndexData | PackedCatalog): ArrayBuffer[] {
  return Object.values(data)
    .filter((v): v is Uint8Array => ArrayBuffer.isView(v))
    .map((v) => v.buffer as ArrayBuffer);
}

/** FNV-1a over UTF-16 code units. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The index of a catalog given whole (small catalogs, tests, the quality bench). */
export function buildIndex(rows: readonly CatalogSchool[]): IndexData {
  return buildPackedIndex(packCatalog(rows));
}

/**
 * The index of a packed catalog (packed-catalog.ts). Its text becomes the index's, in the
 * catalog's row order (`order` maps a document to its row); the other arrays are read.
 */
export function buildPackedIndex(packed: PackedCatalog): IndexData {
  const rows = new PackedRows(packed);
  const docCount = rows.count;
  const words = wordsFor(docCount);
  const order = staticOrder(rows);
  const forward = forwardIndex(rows, order);
  const { termCount, vocabulary, fwd, nameSeq } = rankVocabulary(forward);
  const { fwdStart, nameStart, nameAlt } = forward;
  const { firstStart, firstDocs } = firstWordLists(docCount, termCount, nameStart, nameSeq, nameAlt);
  const trie = buildTrie(vocabulary);
  const reverse = buildReverseTrie(vocabulary);
  const { nodeList, lists } = listNodes(trie, termCount);
  const { ancestorStart, ancestorOf } = listedAncestors(trie, vocabulary, nodeList);
  const postings = postingLists({ docCount, words, lists, fwdStart, fwd, ancestorStart, ancestorOf });
  const { eqHash, eqDoc, eqField } = equalityKeys(rows, order);
  const { docState, stateSets } = statesOf(packed.state, order, words);
  const docKind = packed.kind.map((_, doc) => packed.kind[order[doc]!]!);
  const docLat = packed.latitude.map((_, doc) => packed.latitude[order[doc]!]!);
  const docLon = packed.longitude.map((_, doc) => packed.longitude[order[doc]!]!);

  return {
    docCount,
    termCount,
    order,
    docState,
    docKind,
    stateSets,
    ...kindSets(docKind, words),
    docLat,
    docLon,
    ...buildGeoGrid(docLat, docLon),
    ...trie,
    ...reverse,
    nodeList,
    listCount: postings.listCount,
    listStart: postings.listStart,
    listDense: postings.listDense,
    sparse: postings.sparse,
    dense: postings.dense,
    fwdStart,
    fwd,
    nameStart,
    nameSeq,
    nameAlt,
    firstStart,
    firstDocs,
    lengthSets: lengthSets(docCount, words, nameStart),
    text: packed.text,
    textStart: packed.textStart,
    eqHash,
    eqDoc,
    eqField,
  };
}

/** Documents in the static order: position → row. */
function staticOrder(rows: PackedRows): Uint32Array {
  const keys = Array.from({ length: rows.count }, (_, r) => new StaticKeyOf(rows, r));
  const order = new Uint32Array(rows.count);
  for (let r = 0; r < order.length; r++) order[r] = r;
  return order.sort((a, b) => compareStatic(keys[a]!, keys[b]!));
}

/** A row's key of the static order; its id, which breaks ties only, decoded when a comparison gets that far. */
class StaticKeyOf {
  readonly prominence: number;
  readonly sortKey: string;
  readonly #rows: PackedRows;
  readonly #row: number;

  constructor(rows: PackedRows, row: number) {
    this.#rows = rows;
    this.#row = row;
    this.prominence = rows.prominence(row);
    this.sortKey = nameSortKey(rows.name(row));
  }

  get id(): string {
    return this.#rows.id(this.#row);
  }
}

interface ForwardIndex {
  /** Terms in the order first met (their temporary ids). */
  readonly terms: string[];
  readonly fwdStart: Uint32Array;
  /** Each document's terms as (temporary id << 2) | field. */
  readonly fwd: Uint32Array;
  readonly nameStart: Uint32Array;
  /** Each document's name words, as temporary ids. */
  readonly nameSeq: Uint32Array;
  /** Each document's other starts (index-data.ts, nameAlt). */
  readonly nameAlt: Uint8Array;
}

/** Terms of every document, interned; each document keeps a term once, in its best field. */
function forwardIndex(rows: PackedRows, order: Uint32Array): ForwardIndex {
  const docCount = rows.count;
  const interned = new Map<string, number>();
  const terms: string[] = [];
  const intern = (term: string): number => {
    let id = interned.get(term);
    if (id === undefined) {
      id = terms.length;
      terms.push(term);
      interned.set(term, id);
    }
    return id;
  };
  const cityTerms = new Map<string, number[]>();
  const fwdStart = new Uint32Array(docCount + 1);
  const fwdTemp = new U32();
  const nameStart = new Uint32Array(docCount + 1);
  const nameTemp = new U32();
  const nameAlt = new Uint8Array(2 * docCount).fill(NO_START);
  const local = new Map<number, number>();
  for (let doc = 0; doc < docCount; doc++) {
    const row = order[doc]!;
    const name = rows.name(row);
    local.clear();
    const add = (ids: Iterable<number>, field: number) => {
      for (const id of ids) {
        const before = local.get(id);
        if (before === undefined || field < before) local.set(id, field);
      }
    };
    add(indexTerms(name).map(intern), Field.Name);
    for (const alias of rows.aliases(row)) add(indexTerms(alias).map(intern), Field.Alias);
    const cityName = rows.city(row);
    let city = cityTerms.get(cityName);
    if (!city) {
      city = indexTerms(cityName).map(intern);
      cityTerms.set(cityName, city);
    }
    add(city, Field.City);
    for (const [id, field] of local) fwdTemp.push((id << 2) | field);
    fwdStart[doc + 1] = fwdTemp.length;
    // Every name word is one of the name's terms (indexTerms keeps the words themselves).
    const list = nameWords(name);
    for (const w of list) nameTemp.push(intern(w));
    nameStart[doc + 1] = nameTemp.length;
    // nameStarts gives at most two starts past the first word, each below the name's length (< 256).
    nameStarts(name, list)
      .slice(1)
      .forEach((at, k) => {
        nameAlt[2 * doc + k] = at;
      });
  }
  return { terms, fwdStart, fwd: fwdTemp.done(), nameStart, nameSeq: nameTemp.done(), nameAlt };
}

/** The vocabulary in code-unit order; a term's id becomes its rank (the forward index rewritten in place). */
function rankVocabulary({ terms, fwd, nameSeq }: ForwardIndex) {
  const termCount = terms.length;
  const sortedTemp = terms
    .map((_, i) => i)
    .sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
  const rank = new Uint32Array(termCount);
  sortedTemp.forEach((temp, id) => {
    rank[temp] = id;
  });
  const vocabulary = sortedTemp.map((temp) => terms[temp]!);
  for (let i = 0; i < fwd.length; i++) fwd[i] = (rank[fwd[i]! >>> 2]! << 2) | (fwd[i]! & 3);
  for (let i = 0; i < nameSeq.length; i++) nameSeq[i] = rank[nameSeq[i]!]!;
  return { termCount, vocabulary, fwd, nameSeq };
}

/** For each term, the documents whose name may start with it (its first word, or at a nameAlt offset), ascending. */
function firstWordLists(
  docCount: number,
  termCount: number,
  nameStart: Uint32Array,
  nameSeq: Uint32Array,
  nameAlt: Uint8Array,
) {
  // A document's start terms, each once (two starts may be the same word).
  const startTerms = (doc: number, each: (term: number) => void) => {
    const first = nameStart[doc]!;
    if (nameStart[doc + 1]! === first) return;
    const t0 = nameSeq[first]!;
    each(t0);
    const a1 = nameAlt[2 * doc]!;
    if (a1 === NO_START) return;
    const t1 = nameSeq[first + a1]!;
    if (t1 !== t0) each(t1);
    const a2 = nameAlt[2 * doc + 1]!;
    if (a2 === NO_START) return;
    const t2 = nameSeq[first + a2]!;
    if (t2 !== t0 && t2 !== t1) each(t2);
  };
  const firstStart = new Uint32Array(termCount + 1);
  for (let doc = 0; doc < docCount; doc++)
    startTerms(doc, (term) => {
      firstStart[term + 1]!++;
    });
  for (let t = 0; t < termCount; t++) firstStart[t + 1]! += firstStart[t]!;
  const firstDocs = new Uint32Array(firstStart[termCount]!);
  const firstFill = firstStart.slice(0, termCount);
  for (let doc = 0; doc < docCount; doc++)
    startTerms(doc, (term) => {
      firstDocs[firstFill[term]!++] = doc;
    });
  return { firstStart, firstDocs };
}

/** For k = 1..MAX_QUERY_WORDS, the documents whose name has at most k words. */
function lengthSets(docCount: number, words: number, nameStart: Uint32Array): Uint32Array {
  const sets = new Uint32Array(MAX_QUERY_WORDS * words);
  for (let doc = 0; doc < docCount; doc++) {
    const length = Math.max(1, nameStart[doc + 1]! - nameStart[doc]!);
    for (let k = length; k <= MAX_QUERY_WORDS; k++) sets[(k - 1) * words + (doc >>> 5)]! |= 1 << (doc & 31);
  }
  return sets;
}

type Trie = ReturnType<typeof buildTrie>;

/**
 * Which trie nodes get a list: those with many terms below them. A node with one child and no
 * term of its own has the same documents as that child, and shares its list.
 */
function listNodes(trie: Trie, termCount: number) {
  const nodeCount = trie.nodeChar.length;
  const nodeList = new Int32Array(nodeCount).fill(-1);
  let lists = termCount;
  for (let n = nodeCount - 1; n >= 1; n--) {
    if (trie.nodeHi[n]! - trie.nodeLo[n]! < MATERIALIZE_MIN_TERMS) continue;
    const first = trie.nodeFirstChild[n]!;
    const onlyChild = trie.nodeFirstChild[n + 1]! - first === 1 && trie.nodeTerm[n] === -1 ? first : -1;
    nodeList[n] = onlyChild >= 0 && nodeList[onlyChild]! >= 0 ? nodeList[onlyChild]! : lists++;
  }
  return { nodeList, lists };
}

/** Each term's listed ancestors (distinct lists, root excluded). */
function listedAncestors(trie: Trie, vocabulary: readonly string[], nodeList: Int32Array) {
  const termCount = vocabulary.length;
  const ancestorStart = new Uint32Array(termCount + 1);
  const ancestors = new U32();
  for (let t = 0; t < termCount; t++) {
    let node = 0;
    let previous = -1;
    const term = vocabulary[t]!;
    for (let d = 0; d < term.length; d++) {
      node = childOf(trie, node, term.charCodeAt(d));
      const list = nodeList[node]!;
      if (list >= 0 && list !== previous) {
        ancestors.push(list);
        previous = list;
      }
    }
    ancestorStart[t + 1] = ancestors.length;
  }
  return { ancestorStart, ancestorOf: ancestors.done() };
}

/** Documents of every list, in ascending order (documents are visited in order): dense as bitsets, sparse as arrays. */
function postingLists(p: {
  docCount: number;
  words: number;
  lists: number;
  fwdStart: Uint32Array;
  fwd: Uint32Array;
  ancestorStart: Uint32Array;
  ancestorOf: Uint32Array;
}) {
  const { docCount, words, lists, fwdStart, fwd, ancestorStart, ancestorOf } = p;
  const listCount = new Uint32Array(lists);
  const lastDoc = new Int32Array(lists).fill(-1);
  const visit = (doc: number, each: (list: number) => void) => {
    for (let i = fwdStart[doc]!; i < fwdStart[doc + 1]!; i++) {
      const t = fwd[i]! >>> 2;
      each(t);
      for (let a = ancestorStart[t]!; a < ancestorStart[t + 1]!; a++) {
        const list = ancestorOf[a]!;
        if (lastDoc[list] !== doc) {
          lastDoc[list] = doc;
          each(list);
        }
      }
    }
  };
  for (let doc = 0; doc < docCount; doc++) visit(doc, (list) => listCount[list]!++);
  const listDense = new Int32Array(lists).fill(-1);
  const listStart = new Uint32Array(lists);
  let sparseLength = 0;
  let denseLists = 0;
  for (let l = 0; l < lists; l++) {
    if (listCount[l]! > words) listDense[l] = words * denseLists++;
    else {
      listStart[l] = sparseLength;
      sparseLength += listCount[l]!;
    }
  }
  const sparse = new Uint32Array(sparseLength);
  const dense = new Uint32Array(words * denseLists);
  const filled = new Uint32Array(lists);
  lastDoc.fill(-1);
  for (let doc = 0; doc < docCount; doc++) {
    visit(doc, (list) => {
      const at = listDense[list]!;
      if (at >= 0) dense[at + (doc >>> 5)]! |= 1 << (doc & 31);
      else sparse[listStart[list]! + filled[list]!++] = doc;
    });
  }
  return { listCount, listStart, listDense, sparse, dense };
}

/**
 * A hash of each name's, distinctive part's (3) and distinct alternative name's equality key, sorted by hash then
 * document: typed arrays and a sorted permutation, not an object per key.
 */
function equalityKeys(rows: PackedRows, order: Uint32Array) {
  const hashes = new U32();
  const docs = new U32();
  const fields: number[] = [];
  for (let doc = 0; doc < rows.count; doc++) {
    const row = order[doc]!;
    const nameKey = canonicalKey(rows.name(row));
    if (nameKey) {
      hashes.push(hash32(nameKey));
      docs.push(doc);
      fields.push(2);
    }
    const seen = new Set([nameKey]);
    // The other keys its name is equal to (rank.ts, partKeysOf, as matching.ts equalNameKeys
    // makes them): a ranked school's distinctive parts (field 3), its name without "School" (4).
    const others: [string, number][] =
      rows.prominence(row) > 0 ? distinctiveKeys(rows.name(row)).map((k) => [k, 3]) : [];
    const short = keyWithoutSchool(rows.name(row));
    if (short !== undefined) others.push([short, 4]);
    for (const [key, field] of others) {
      if (seen.has(key)) continue;
      seen.add(key);
      hashes.push(hash32(key));
      docs.push(doc);
      fields.push(field);
    }
    for (const alias of rows.aliases(row)) {
      const key = canonicalKey(alias);
      if (key && !seen.has(key)) {
        seen.add(key);
        hashes.push(hash32(key));
        docs.push(doc);
        fields.push(1);
      }
    }
  }
  const hash = hashes.data;
  const docOf = docs.data;
  const sorted = new Uint32Array(hashes.length);
  for (let i = 0; i < sorted.length; i++) sorted[i] = i;
  sorted.sort((a, b) => hash[a]! - hash[b]! || docOf[a]! - docOf[b]!);
  return {
    eqHash: sorted.map((i) => hash[i]!),
    eqDoc: sorted.map((i) => docOf[i]!),
    eqField: Uint8Array.from(sorted, (i) => fields[i]!),
  };
}

/** Each document's state, and one bitset of documents per state. */
function statesOf(rowState: Uint8Array, order: Uint32Array, words: number) {
  const docState = new Uint8Array(rowState.length);
  const stateSets = new Uint32Array(STATE_LIST.length * words);
  for (let doc = 0; doc < docState.length; doc++) {
    const s = rowState[order[doc]!]!;
    docState[doc] = s;
    stateSets[s * words + (doc >>> 5)]! |= 1 << (doc & 31);
  }
  return { docState, stateSets };
}

/**
 * One bitset per level and per type filter. 9 bitsets: 168 KB at 150,000 schools, against a pass
 * over docKind for every filtered search (docs/search.md: the figures).
 */
function kindSets(docKind: Uint32Array, words: number) {
  const levelSets = new Uint32Array(LEVELS.length * words);
  const typeSets = new Uint32Array(TYPE_FILTERS.length * words);
  for (let doc = 0; doc < docKind.length; doc++) {
    const kind = docKind[doc]!;
    const bit = 1 << (doc & 31);
    const level = levelIndexOf(kind);
    if (level >= 0) levelSets[level * words + (doc >>> 5)]! |= bit;
    for (let t = 0; t < TYPE_FILTERS.length; t++)
      if (isKindOfType(kind, TYPE_FILTERS[t]!)) typeSets[t * words + (doc >>> 5)]! |= bit;
  }
  return { levelSets, typeSets };
}
