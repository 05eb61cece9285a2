// Builds the in-process index of a catalog: plain typed arrays only, so that a worker thread can
// build it and hand it over without copying (see build.worker.ts), and so that it stays compact.
// The catalog comes in batches (packed-catalog.ts), each taken as it arrives (build-rows.ts): a
// million schools are never held as objects, nor decoded twice; what waits for the last batch is
// typed arrays, written in document order at the end and freed as they are read.
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
import type { CatalogSchool } from '../../domain/catalog/catalog.ports.ts';
import { MAX_QUERY_WORDS } from '../../domain/search/query.ts';
import { LEVELS } from '../../domain/catalog/school-kind.ts';
import { TYPE_FILTERS } from '../../domain/search/filters.ts';
import { wordsFor } from './bitset.ts';
import { release } from './blocks.ts';
import { CatalogRows } from './build-rows.ts';
import { buildGeoGrid } from './geo-grid.ts';
import { LEAD_WORDS, MATERIALIZE_MIN_TERMS, NO_START, STATE_LIST, TEXT_FIELDS, type IndexData } from './index-data.ts';
import { isKindOfType, levelIndexOf } from './kind-bits.ts';
import { packCatalog, type PackedCatalog, PackedRows } from './packed-catalog.ts';
import { buildReverseTrie } from './reverse-trie.ts';
import { buildTrie, childOf } from './trie.ts';
import { U32 } from './u32.ts';

export type { IndexData };
export { hash32 } from './build-rows.ts';

const F = TEXT_FIELDS.length;

/** The buffers of an index's (or of a packed batch's) typed arrays, each once: to transfer them between threads. */
export function buffersOf(data: IndexData | PackedCatalog): ArrayBuffer[] {
  const buffers = Object.values(data)
    .filter((v): v is Uint8Array => ArrayBuffer.isView(v))
    .map((v) => v.buffer as ArrayBuffer);
  return [...new Set(buffers)];
}

/** Schools per batch when a catalog is given whole: as a store reads them (a batch packs into a buffer three times its text). */
const BATCH = 2_000;

/** The index of a catalog given whole (tests, the quality bench), built from it in batches as from a store. */
export function buildIndex(rows: readonly CatalogSchool[]): IndexData {
  const builder = new IndexBuilder();
  for (let start = 0; start < rows.length; start += BATCH) builder.add(packCatalog(rows.slice(start, start + BATCH)));
  return builder.finish();
}

/**
 * An index built from a catalog given in batches: add() takes each as it comes, finish() makes
 * the index. A batch becomes the builder's (read, copied into the index's text, then freed:
 * its buffer is detached), so the caller does not use it again.
 */
export class IndexBuilder {
  readonly #rows = new CatalogRows();
  #batches: PackedCatalog[] = [];

  /** Schools added so far. */
  get count(): number {
    return this.#rows.count;
  }

  add(batch: PackedCatalog): void {
    this.#rows.add(new PackedRows(batch));
    this.#batches.push(batch);
  }

  finish(): IndexData {
    const packed = joinBatches(this.#batches);
    this.#batches = [];
    const rows = this.#rows;
    const docCount = packed.count;
    const words = wordsFor(docCount);
    const { vocabulary, rank } = rows.vocabulary();
    const termCount = vocabulary.length;
    const text = new PackedRows(packed);
    const order = rows.order(rank, packed.prominence, (a, b) => text.compareIds(a, b));
    const docProminence = packed.prominence.map((_, doc) => packed.prominence[order[doc]!]!);
    release(packed.prominence);
    const { idHash, idDoc } = rows.ids(order);
    const { fwdStart, fwd, nameStart, nameSeq, nameAlt, docLead } = rows.forward(order, rank);
    release(rank);
    const { eqHash, eqDoc, eqField } = rows.equality(order);
    const { firstStart, firstDocs } = firstWordLists(docCount, termCount, nameStart, nameSeq, nameAlt);
    const trie = buildTrie(vocabulary);
    const reverse = buildReverseTrie(vocabulary);
    const { nodeList, lists } = listNodes(trie, termCount);
    const { ancestorStart, ancestorOf } = listedAncestors(trie, vocabulary, nodeList);
    const postings = postingLists({ docCount, words, lists, fwdStart, fwd, ancestorStart, ancestorOf });
    release(ancestorStart);
    release(ancestorOf);
    const { docState, stateSets } = statesOf(packed.state, order, words);
    const inOrder = <T extends Uint32Array | Float64Array>(rowValues: T): T => {
      const out = rowValues.map((_, doc) => rowValues[order[doc]!]!) as T;
      release(rowValues);
      return out;
    };
    release(packed.state);
    const docKind = inOrder(packed.kind);
    const docLat = inOrder(packed.latitude);
    const docLon = inOrder(packed.longitude);

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
      docLead,
      leadSets: leadSets(docLead, words),
      firstStart,
      firstDocs,
      lengthSets: lengthSets(docCount, words, nameStart),
      text: packed.text,
      textStart: packed.textStart,
      eqHash,
      eqDoc,
      eqField,
      docProminence,
      idHash,
      idDoc,
    };
  }
}

/**
 * The batches as one packed catalog, in row order (the index's text is this one's). Each batch's
 * arrays are freed as soon as they are copied: the catalog is held once, not twice, while it is
 * joined.
 */
function joinBatches(batches: readonly PackedCatalog[]): PackedCatalog {
  let count = 0;
  let bytes = 0;
  for (const b of batches) {
    count += b.count;
    bytes += b.text.length;
  }
  const text = new Uint8Array(bytes);
  const textStart = new Uint32Array(count * F + 1);
  const state = new Uint8Array(count);
  const kind = new Uint32Array(count);
  const prominence = new Float64Array(count);
  const latitude = new Float64Array(count);
  const longitude = new Float64Array(count);
  let row = 0;
  let at = 0;
  for (const b of batches) {
    text.set(b.text, at);
    for (let i = 1; i <= b.count * F; i++) textStart[row * F + i] = at + b.textStart[i]!;
    state.set(b.state, row);
    kind.set(b.kind, row);
    prominence.set(b.prominence, row);
    latitude.set(b.latitude, row);
    longitude.set(b.longitude, row);
    row += b.count;
    at += b.text.length;
    // A batch is one buffer (packed-catalog.ts): its arrays are views of it.
    release(b.text);
  }
  return { count, text, textStart, state, kind, prominence, latitude, longitude };
}

/** One bitset per LEAD_WORDS entry: the documents whose name begins with it (index-data.ts, leadSets). */
function leadSets(docLead: Uint16Array, words: number): Uint32Array {
  const sets = new Uint32Array(LEAD_WORDS.length * words);
  for (let doc = 0; doc < docLead.length; doc++) {
    const first = docLead[doc]! & 0xff;
    if (first !== 0) sets[(first - 1) * words + (doc >>> 5)]! |= 1 << (doc & 31);
  }
  return sets;
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
