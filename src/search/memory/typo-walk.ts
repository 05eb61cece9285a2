// One walk of a trie against one word, the step typos.ts is made of: the optimal-string-alignment
// table (src/domain/search/matching.ts, osaDistance) one row per depth, evaluated lazily as a
// Levenshtein automaton, each row kept as bit vectors rather than numbers. A cell is at least
// |depth − column| (that many letters are inserted or deleted), so only the 2 × MAX_EDITS + 1 cells
// around the diagonal can be within the budget: a row is 5 bits whatever the word's length, and
// vector e holds the cells within e edits (Wu and Manber's bit-parallel matching, plus the
// transposition term). A row costs a dozen integer operations instead of a Math.min per letter.
import { typoBudget } from '../../domain/search/query.ts';

/** The most edits a walk counts: typoBudget's largest (a test holds it to that). */
export const MAX_EDITS = 2;
/** Bit b of a row at depth d is the cell of column d − MAX_EDITS + b. */
const BAND = 2 * MAX_EDITS + 1;

/** A trie as the walk reads it (trie.ts). */
export interface WalkTrie {
  readonly nodeChar: Uint16Array;
  readonly nodeFirstChild: Uint32Array;
  readonly nodeTerm: Int32Array;
}

// What the walk keeps per depth, STRIDE numbers each: the row's vectors within 0, 1 and 2 edits,
// which of the band's letters equal the node's letter, the next child to visit and the end of the
// children, and whether a child whose letter is not in the band can be passed over.
const WITHIN0 = 0;
const WITHIN1 = 1;
const WITHIN2 = 2;
const EQUAL = 3;
const NEXT = 4;
const END = 5;
const SKIP = 6;
const STRIDE = 8;

/** The lowest n bits of the band. */
function lowBits(n: number): number {
  return n <= 0 ? 0 : n >= BAND ? (1 << BAND) - 1 : (1 << n) - 1;
}

/** Walks tries against one word at a time; its scratch is reused from walk to walk. */
export class TypoWalk {
  /** The word, padded: letters[j + MAX_EDITS] is its j-th letter (from 1), -1 (no letter) around it. */
  #letters = new Int32Array(64);
  #length = 0;
  /** Depth d's numbers start at (d + 1) × STRIDE; depth −1 is a row with no cell (for the transposition term at depth 1). */
  #rows = new Int32Array(64 * STRIDE);

  /** Sets the word the next walks compare with. */
  spell(word: string): void {
    const m = word.length;
    // The walk reads letters[d .. d + BAND − 1] at depths up to m + MAX_EDITS.
    const size = m + MAX_EDITS + BAND + 1;
    if (this.#letters.length < size) this.#letters = new Int32Array(2 * size);
    this.#letters.fill(-1, 0, size);
    for (let j = 1; j <= m; j++) this.#letters[j + MAX_EDITS] = word.charCodeAt(j - 1);
    this.#length = m;
  }

  /** Appends the terms within their typo budget of the word (typoBudget of the longer of the two), up to `edits` (≥ that budget). */
  terms(trie: WalkTrie, edits: number, out: number[]): void {
    this.#walk(trie, edits, false, out);
  }

  /** Appends the highest nodes within `edits` of the word: every term below them starts within `edits`. */
  nodes(trie: WalkTrie, edits: number, out: number[]): void {
    this.#walk(trie, edits, true, out);
  }

  #walk(trie: WalkTrie, edits: number, nodes: boolean, out: number[]): void {
    const m = this.#length;
    const maxDepth = m + edits;
    if (this.#rows.length < (maxDepth + 3) * STRIDE) this.#rows = new Int32Array(2 * (maxDepth + 3) * STRIDE);
    const rows = this.#rows;
    const letters = this.#letters;
    const { nodeChar, nodeFirstChild, nodeTerm } = trie;
    rows.fill(0, 0, 2 * STRIDE);
    // Depth 0: the cell of column j is j.
    rows[STRIDE + WITHIN0] = 1 << MAX_EDITS;
    rows[STRIDE + WITHIN1] = lowBits(Math.min(1, m) + 1) << MAX_EDITS;
    rows[STRIDE + WITHIN2] = lowBits(Math.min(2, m) + 1) << MAX_EDITS;
    rows[2 * STRIDE + NEXT] = nodeFirstChild[0]!;
    rows[2 * STRIDE + END] = nodeFirstChild[1]!;
    rows[2 * STRIDE + SKIP] = 0;
    // Depth-first, children in order of their letter: terms come out ascending, as ids go.
    let d = 1;
    while (d > 0) {
      const at = (d + 1) * STRIDE;
      const node = rows[at + NEXT]!;
      if (node === rows[at + END]) {
        d--;
        continue;
      }
      rows[at + NEXT] = node + 1;
      const c = nodeChar[node]!;
      const equal =
        (letters[d] === c ? 1 : 0) |
        (letters[d + 1] === c ? 2 : 0) |
        (letters[d + 2] === c ? 4 : 0) |
        (letters[d + 3] === c ? 8 : 0) |
        (letters[d + 4] === c ? 16 : 0);
      if (equal === 0 && rows[at + SKIP] !== 0) continue;
      const up = at - STRIDE;
      const up2 = up - STRIDE;
      const a0 = rows[up + WITHIN0]!;
      const a1 = rows[up + WITHIN1]!;
      const a2 = rows[up + WITHIN2]!;
      // Columns past the word's end hold no cell.
      const valid = lowBits(m - d + 1 + MAX_EDITS);
      // Transposition: this letter is the word's previous one, and the parent's letter this one.
      const swap = (equal << 1) & (rows[up + EQUAL]! >>> 1);
      // Per vector e: a match from the diagonal within e, a substitution or an inserted letter
      // from the parent's cells within e − 1 (same bit, and the next one), a deleted letter from
      // the left cell within e − 1, a transposition from the cell two rows up within e − 1.
      const r0 = a0 & equal & valid;
      const r1 = ((a1 & equal) | a0 | (a0 >>> 1) | (r0 << 1) | (rows[up2 + WITHIN0]! & swap)) & valid;
      const r2 = ((a2 & equal) | a1 | (a1 >>> 1) | (r1 << 1) | (rows[up2 + WITHIN1]! & swap)) & valid;
      rows[at + WITHIN0] = r0;
      rows[at + WITHIN1] = r1;
      rows[at + WITHIN2] = r2;
      rows[at + EQUAL] = equal;
      const live = edits === 2 ? r2 : edits === 1 ? r1 : r0;
      // The cell of the word's last column, when it is in the band.
      const last = m - d + MAX_EDITS;
      if (last >= 0 && last < BAND) {
        if (nodes) {
          if (((live >>> last) & 1) !== 0) {
            out.push(node);
            continue;
          }
        } else if (nodeTerm[node]! >= 0) {
          const budget = typoBudget(Math.max(m, d));
          const within = budget === 2 ? r2 : budget === 1 ? r1 : r0;
          if (((within >>> last) & 1) !== 0) out.push(nodeTerm[node]!);
        }
      }
      if (live === 0 || d === maxDepth) continue;
      const next = at + STRIDE;
      rows[next + NEXT] = nodeFirstChild[node]!;
      rows[next + END] = nodeFirstChild[node + 1]!;
      // A child whose letter is none of its band's gets the rows of a letter that matches
      // nothing, which follow from this row alone: within e − 1 here, one edit more there. When
      // those are out of the budget (every cell left is at the budget, so only a match can
      // follow), such children are passed over without a row; at shallow depths that is most.
      rows[next + SKIP] = (edits === 2 ? r1 : edits === 1 ? r0 : 0) === 0 ? 1 : 0;
      d++;
    }
  }
}
