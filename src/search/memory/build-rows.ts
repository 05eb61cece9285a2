// What the index build (build.ts) takes from each catalog row as its batch arrives, so that no
// row is decoded twice and nothing but typed arrays waits for the catalog's end: the terms of its
// name, alternative names and city (interned, each once, in its best field); its name's words;
// where else its name may be typed from; the words its place in the static order compares; the
// hashes of its equality keys. All in row order, in blocks (blocks.ts). At the end, when the
// vocabulary is ranked and the static order known, they are written in document order, each
// block freed once read.
import { canonicalKey, indexTerms, keyWithoutSchool, readingOrderKey } from '../../domain/search/analysis.ts';
import { distinctiveKeys, nameStarts, nameWords } from '../../domain/search/matching.ts';
import { words } from '../../domain/shared/normalize.ts';
import { Field } from '../../domain/search/ranking-rules.ts';
import { release, u32Blocks, u8Blocks } from './blocks.ts';
import { leadCode, NO_START } from './index-data.ts';
import type { PackedRows } from './packed-catalog.ts';

/** FNV-1a over UTF-16 code units. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** How two catalog rows' ids compare, as strings compare their code units. */
export type CompareIds = (a: number, b: number) => number;

export class CatalogRows {
  /** Terms in the order first met (their temporary ids), and each term's temporary id. */
  readonly #terms: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #cityTerms = new Map<string, number[]>();
  /** One row's terms and their best field, reused. */
  readonly #local = new Map<number, number>();
  #count = 0;
  /** Each row's forward entries, (temporary id << 2) | field: row r's are fwd[fwdAt[r] .. fwdAt[r + 1]). */
  readonly #fwd = u32Blocks();
  readonly #fwdAt = u32Blocks();
  /** Each row's name words (matching.ts, nameWords), as temporary ids. */
  readonly #name = u32Blocks();
  readonly #nameAt = u32Blocks();
  /** Two nameAlt offsets per row (index-data.ts). */
  readonly #nameAlt = u8Blocks();
  /** Each row's name's leading small words (index-data.ts, docLead). */
  readonly #lead = u32Blocks();
  /** Each row's folded name words (normalize.ts, words: its nameSortKey, split), as temporary ids. */
  readonly #sort = u32Blocks();
  readonly #sortAt = u32Blocks();
  /** Each equality key: its hash, its row, its field (index-data.ts, eqField). */
  readonly #eqHash = u32Blocks();
  readonly #eqRow = u32Blocks();
  readonly #eqField = u8Blocks();
  /** Each row's id's hash: the id lookup (index-data.ts, idHash) a delta finds the schools it replaces by. */
  readonly #idHash = u32Blocks();

  constructor() {
    this.#fwdAt.push(0);
    this.#nameAt.push(0);
    this.#sortAt.push(0);
  }

  get count(): number {
    return this.#count;
  }

  /** Takes what the index needs of each row of a batch (row numbers continue from the last batch's). */
  add(rows: PackedRows): void {
    for (let r = 0; r < rows.count; r++) {
      const row = this.#count++;
      const name = rows.name(r);
      const aliases = rows.aliases(r);
      this.#forward(name, aliases, rows.city(r));
      const list = nameWords(name);
      // Every name word is one of the name's terms (indexTerms keeps the words themselves).
      for (const w of list) this.#name.push(this.#intern(w));
      this.#nameAt.push(this.#name.length);
      // nameStarts gives at most two starts past the first word, each below the name's length (< 256).
      const starts = nameStarts(name, list);
      this.#nameAlt.push(starts[1] ?? NO_START);
      this.#nameAlt.push(starts[2] ?? NO_START);
      const folded = words(name);
      this.#lead.push(leadCode(folded.slice(0, 2)));
      for (const w of folded) this.#sort.push(this.#known(w));
      this.#sortAt.push(this.#sort.length);
      this.#equality(row, name, aliases, rows.prominence(r));
      this.#idHash.push(hash32(rows.id(r)));
    }
  }

  /** The ids' hashes sorted, then by document, with their documents; the rows' block freed. */
  ids(order: Uint32Array) {
    const rowHash = this.#idHash.take();
    const idDoc = new Uint32Array(order.length);
    for (let doc = 0; doc < order.length; doc++) idDoc[doc] = doc;
    idDoc.sort((a, b) => rowHash[order[a]!]! - rowHash[order[b]!]! || a - b);
    const idHash = idDoc.map((doc) => rowHash[order[doc]!]!);
    release(rowHash);
    return { idHash, idDoc };
  }

  /** The vocabulary in code-unit order, and each temporary id's rank in it: its id in the index. */
  vocabulary(): { vocabulary: string[]; rank: Uint32Array } {
    const terms = this.#terms;
    const sortedTemp = terms
      .map((_, i) => i)
      .sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
    const rank = new Uint32Array(terms.length);
    sortedTemp.forEach((temp, id) => {
      rank[temp] = id;
    });
    return { vocabulary: sortedTemp.map((temp) => terms[temp]!), rank };
  }

  /**
   * Documents in the static order (ranking-rules.ts, compareStatic): position → row. Prominence
   * descending, then the folded name, then the id. The folded name (nameSortKey) is the row's
   * words joined by spaces; comparing two as word sequences, by their terms' ranks (code-unit
   * order) and the shorter first when one is the other's start, orders them as their joined
   * text does, a space being below every character of a word: no key string is made per row.
   */
  order(rank: Uint32Array, prominence: Float64Array, compareIds: CompareIds): Uint32Array {
    const seq = this.#sort.take();
    for (let i = 0; i < seq.length; i++) seq[i] = rank[seq[i]!]!;
    const at = this.#sortAt.take();
    const order = new Uint32Array(this.#count);
    for (let r = 0; r < order.length; r++) order[r] = r;
    order.sort((a, b) => {
      const byProminence = prominence[b]! - prominence[a]!;
      if (byProminence !== 0) return byProminence;
      const a0 = at[a]!;
      const b0 = at[b]!;
      const aLength = at[a + 1]! - a0;
      const bLength = at[b + 1]! - b0;
      const common = Math.min(aLength, bLength);
      for (let i = 0; i < common; i++) {
        const d = seq[a0 + i]! - seq[b0 + i]!;
        if (d !== 0) return d;
      }
      return aLength - bLength || compareIds(a, b);
    });
    release(seq);
    release(at);
    return order;
  }

  /** The forward index and the name words in document order, terms as ranks; the rows' blocks freed. */
  forward(order: Uint32Array, rank: Uint32Array) {
    const docCount = order.length;
    const placed = (
      entries: ReturnType<typeof u32Blocks>,
      at: ReturnType<typeof u32Blocks>,
      rewrite: (v: number) => number,
    ) => {
      const start = new Uint32Array(docCount + 1);
      for (let doc = 0; doc < docCount; doc++) {
        const row = order[doc]!;
        start[doc + 1] = start[doc]! + at.get(row + 1) - at.get(row);
      }
      const out = new Uint32Array(start[docCount]!);
      let k = 0;
      for (let doc = 0; doc < docCount; doc++) {
        const row = order[doc]!;
        for (let i = at.get(row); i < at.get(row + 1); i++) out[k++] = rewrite(entries.get(i));
      }
      entries.free();
      at.free();
      return { start, out };
    };
    const forward = placed(this.#fwd, this.#fwdAt, (e) => (rank[e >>> 2]! << 2) | (e & 3));
    const names = placed(this.#name, this.#nameAt, (t) => rank[t]!);
    const nameAlt = new Uint8Array(2 * docCount);
    for (let doc = 0; doc < docCount; doc++) {
      const row = order[doc]!;
      nameAlt[2 * doc] = this.#nameAlt.get(2 * row);
      nameAlt[2 * doc + 1] = this.#nameAlt.get(2 * row + 1);
    }
    this.#nameAlt.free();
    const docLead = new Uint16Array(docCount);
    for (let doc = 0; doc < docCount; doc++) docLead[doc] = this.#lead.get(order[doc]!);
    this.#lead.free();
    return {
      fwdStart: forward.start,
      fwd: forward.out,
      nameStart: names.start,
      nameSeq: names.out,
      nameAlt,
      docLead,
    };
  }

  /**
   * The equality keys sorted by hash, then document (then as they were made: a row's in the
   * order made, as when the build made them document by document); the rows' blocks freed.
   */
  equality(order: Uint32Array) {
    const rowToDoc = new Uint32Array(order.length);
    for (let doc = 0; doc < order.length; doc++) rowToDoc[order[doc]!] = doc;
    const hash = this.#eqHash.take();
    const docOf = this.#eqRow.take();
    const fields = this.#eqField.take();
    for (let i = 0; i < docOf.length; i++) docOf[i] = rowToDoc[docOf[i]!]!;
    release(rowToDoc);
    const sorted = new Uint32Array(hash.length);
    for (let i = 0; i < sorted.length; i++) sorted[i] = i;
    sorted.sort((a, b) => hash[a]! - hash[b]! || docOf[a]! - docOf[b]! || a - b);
    const eqHash = sorted.map((i) => hash[i]!);
    const eqDoc = sorted.map((i) => docOf[i]!);
    const eqField = Uint8Array.from(sorted, (i) => fields[i]!);
    for (const array of [hash, docOf, fields, sorted]) release(array);
    return { eqHash, eqDoc, eqField };
  }

  #intern(term: string): number {
    let id = this.#ids.get(term);
    if (id === undefined) {
      id = this.#terms.length;
      this.#terms.push(term);
      this.#ids.set(term, id);
    }
    return id;
  }

  /** The id of a term already interned: a word of a name is one of its terms, and must not add one to the vocabulary. */
  #known(term: string): number {
    const id = this.#ids.get(term);
    if (id === undefined) throw new Error(`"${term}" is a word of a name but not one of its terms`);
    return id;
  }

  /** The row's terms, each once, in its best field (name, then alternative names, then city). */
  #forward(name: string, aliases: readonly string[], cityName: string): void {
    const local = this.#local;
    local.clear();
    const add = (ids: Iterable<number>, field: number) => {
      for (const id of ids) {
        const before = local.get(id);
        if (before === undefined || field < before) local.set(id, field);
      }
    };
    add(
      indexTerms(name).map((t) => this.#intern(t)),
      Field.Name,
    );
    for (const alias of aliases)
      add(
        indexTerms(alias).map((t) => this.#intern(t)),
        Field.Alias,
      );
    let city = this.#cityTerms.get(cityName);
    if (!city) {
      city = indexTerms(cityName).map((t) => this.#intern(t));
      this.#cityTerms.set(cityName, city);
    }
    add(city, Field.City);
    for (const [id, field] of local) this.#fwd.push((id << 2) | field);
    this.#fwdAt.push(this.#fwd.length);
  }

  /**
   * The hashes of the row's name's (2), distinctive parts' (3), name without "School"'s (4), name
   * in reading order's (5) and distinct alternative names' (1) equality keys.
   */
  #equality(row: number, name: string, aliases: readonly string[], prominence: number): void {
    const push = (key: string, field: number) => {
      this.#eqHash.push(hash32(key));
      this.#eqRow.push(row);
      this.#eqField.push(field);
    };
    const nameKey = canonicalKey(name);
    if (nameKey) push(nameKey, 2);
    const seen = new Set([nameKey]);
    // The other keys its name is equal to (rank-candidates.ts, partKeysOf, as matching.ts equalNameKeys
    // makes them): a ranked school's distinctive parts (field 3), its name without "School" (4).
    const others: [string, number][] = prominence > 0 ? distinctiveKeys(name).map((k) => [k, 3]) : [];
    const short = keyWithoutSchool(name);
    if (short !== undefined) others.push([short, 4]);
    const reading = readingOrderKey(name);
    if (reading !== undefined) others.push([reading, 5]);
    for (const [key, field] of others) {
      if (seen.has(key)) continue;
      seen.add(key);
      push(key, field);
    }
    for (const alias of aliases) {
      const key = canonicalKey(alias);
      if (key && !seen.has(key)) {
        seen.add(key);
        push(key, 1);
      }
    }
  }
}
