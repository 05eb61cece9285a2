// One walk of a trie against one word, the step typos.ts is made of: the optimal-string-alignment
// table (src/domain/search/matching.ts, osaDistance) one row per depth, evaluated lazily as a
// Levenshtein automaton, each row kept as bit vectors rather than numbers. A cell is at least
// |depth − column| (that many letters are inserted or deleted), so only the 2 × MAX_EDITS + 1 cells
// around the diagonal can be within the budget: a row is 5 bits whatever the word's length, and
// vector e holds the cells within e edits (Wu and Manber's bit-parallel matching, plus the
// transposition term). A row costs a dozen integer operations instead of a Math.min per letter.
import { typoBudget } from '../../domain/search/query.ts';
import { childOf, LONGEST_UNKNOWN } from './trie.ts';

/** The most edits a walk counts: typoBudget's largest (a test holds it to that). */
export const MAX_EDITS = 2;
/** Bit b of a row at depth d is the cell of column d − MAX_EDITS + b. */
const BAND = 2 * MAX_EDITS + 1;

/** A trie as the walk reads it (trie.ts; reverse-trie.ts under the same names). */
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

/**
 * The longest word whose letters' positions fit one 32-bit mask: letters[i] for i up to
 * WIDEST + MAX_EDITS, read shifted by depths up to WIDEST + MAX_EDITS (below 32).
 */
const WIDEST = 29;

/** The lowest n bits of the band. */
function lowBits(n: number): number {
  return n <= 0 ? 0 : n >= BAND ? (1 << BAND) - 1 : (1 << n) - 1;
}

/** Walks tries against one word at a time; its scratch is reused from walk to walk. */
export class TypoWalk {
  /** The word, padded: letters[j + MAX_EDITS] is its j-th letter (from 1), -1 (no letter) around it. */
  #letters = new Int32Array(64);
  #length = 0;
  /**
   * Per letter, bit i when letters[i] is that letter: a node's matches in its band are one read
   * and a shift, not BAND comparisons (words of up to WIDEST letters; longer ones compare).
   */
  readonly #at = new Int32Array(65536);
  /** Per depth d (from 0), the band's columns that hold a cell (valid) and those not capped (free). */
  #valid = new Int32Array(64);
  #free = new Int32Array(64);
  /** Depth d's numbers start at (d + 1) × STRIDE; depth −1 is a row with no cell (for the transposition term at depth 1). */
  #rows = new Int32Array(64 * STRIDE);

  /** Sets the word the next walks compare with, read forwards or (for the reverse trie) backwards. */
  spell(word: string, backwards: boolean): void {
    const m = word.length;
    // The walk reads letters[d .. d + BAND − 1] at depths up to m + MAX_EDITS.
    const size = m + MAX_EDITS + BAND + 1;
    for (let j = 1; j <= this.#length; j++) this.#at[this.#letters[j + MAX_EDITS]!] = 0;
    if (this.#letters.length < size) this.#letters = new Int32Array(2 * size);
    this.#letters.fill(-1, 0, size);
    for (let j = 1; j <= m; j++) this.#letters[j + MAX_EDITS] = word.charCodeAt(backwards ? m - j : j - 1);
    if (m <= WIDEST) for (let j = 1; j <= m; j++) this.#at[this.#letters[j + MAX_EDITS]!]! |= 1 << (j + MAX_EDITS);
    this.#length = m;
  }

  /**
   * Appends the terms within their typo budget of the word (typoBudget of the longer of the two),
   * the walk counting up to `edits` (at least any such budget). Only terms starting with the
   * word's first `exact` letters are visited, and the cells of columns up to `capColumn` count
   * only within `capEdits`: such a walk finds the terms some alignment within the budget reaches
   * that way, which typos.ts makes sure is every term by walking twice.
   */
  terms(trie: WalkTrie, edits: number, exact: number, capColumn: number, capEdits: number, out: number[]): void {
    this.#walk(trie, edits, exact, capColumn, capEdits, undefined, out);
  }

  /**
   * Appends the highest nodes within `edits` of the word: every term below them starts within
   * `edits`. `longest`: the trie's nodeLongest, which leaves the branches too short to reach.
   */
  nodes(trie: WalkTrie, edits: number, longest: Uint8Array, out: number[]): void {
    this.#walk(trie, edits, 0, -1, edits, longest, out);
  }

  #walk(
    trie: WalkTrie,
    edits: number,
    exact: number,
    capColumn: number,
    capEdits: number,
    longest: Uint8Array | undefined,
    out: number[],
  ): void {
    const nodes = longest !== undefined;
    const m = this.#length;
    const maxDepth = m + edits;
    if (this.#rows.length < (maxDepth + 3) * STRIDE) this.#rows = new Int32Array(2 * (maxDepth + 3) * STRIDE);
    const rows = this.#rows;
    const letters = this.#letters;
    const at1 = this.#at;
    const narrow = m <= WIDEST;
    if (this.#valid.length < maxDepth + 2) {
      this.#valid = new Int32Array(2 * (maxDepth + 2));
      this.#free = new Int32Array(2 * (maxDepth + 2));
    }
    const validOf = this.#valid;
    const freeOf = this.#free;
    for (let k = 0; k <= maxDepth + 1; k++) {
      validOf[k] = lowBits(m - k + 1 + MAX_EDITS);
      freeOf[k] = ~lowBits(capColumn - k + 1 + MAX_EDITS);
    }
    const { nodeChar, nodeTerm } = trie;
    rows.fill(0, 0, 2 * STRIDE);
    // Depth 0: the cell of column j is j (capped as any row).
    const capped0 = ~lowBits(capColumn + 1 + MAX_EDITS);
    const i0 = 1 << MAX_EDITS;
    let i1 = lowBits(Math.min(1, m) + 1) << MAX_EDITS;
    if (capEdits < 1) i1 &= capped0 | i0;
    let i2 = lowBits(Math.min(2, m) + 1) << MAX_EDITS;
    if (capEdits < 2) i2 &= capped0 | (capEdits < 1 ? i0 : i1);
    rows[STRIDE + WITHIN0] = i0;
    rows[STRIDE + WITHIN1] = i1;
    rows[STRIDE + WITHIN2] = i2;
    this.#children(trie, 0, exact > 0, 2 * STRIDE);
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
      const equal = narrow
        ? (at1[c]! >>> d) & 31
        : (letters[d] === c ? 1 : 0) |
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
      const valid = validOf[d]!;
      // Transposition: this letter is the word's previous one, and the parent's letter this one.
      const swap = (equal << 1) & (rows[up + EQUAL]! >>> 1);
      // Per vector e: a match from the diagonal within e, a substitution or an inserted letter
      // from the parent's cells within e − 1 (same bit, and the next one), a deleted letter from
      // the left cell within e − 1, a transposition from the cell two rows up within e − 1. A
      // cell of a capped column (capColumn or before) over capEdits is no cell: r1 and r2 keep
      // it only where r0 (r1) has it.
      const capped = freeOf[d]!;
      const r0 = a0 & equal & valid;
      let r1 = ((a1 & equal) | a0 | (a0 >>> 1) | (r0 << 1) | (rows[up2 + WITHIN0]! & swap)) & valid;
      if (capEdits < 1) r1 &= capped | r0;
      let r2 = ((a2 & equal) | a1 | (a1 >>> 1) | (r1 << 1) | (rows[up2 + WITHIN1]! & swap)) & valid;
      if (capEdits < 2) r2 &= capped | (capEdits < 1 ? r0 : r1);
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
      if (nodes && longest[node]! < LONGEST_UNKNOWN) {
        // A prefix ends no deeper than the branch's longest term, so of the word's letters after
        // a cell's column, those beyond the branch's letters left can only be deleted, an edit
        // each: a cell within v edits (bit b) still counts if b ≥ shortfall + v.
        const shortfall = m - longest[node]! + MAX_EDITS - edits;
        let reach = r0 & ~lowBits(shortfall);
        if (edits >= 1) reach |= r1 & ~lowBits(shortfall + 1);
        if (edits >= 2) reach |= r2 & ~lowBits(shortfall + 2);
        if (reach === 0) continue;
      }
      const next = at + STRIDE;
      this.#children(trie, node, d < exact, next);
      // A child whose letter is none of its band's gets the rows of a letter that matches
      // nothing, which follow from this row alone (substituted or inserted: one edit more).
      // When those are empty (every cell left is at the budget or its cap, so only a match can
      // follow), such children are passed over without a row; at shallow depths that is most.
      const validNext = validOf[d + 1]!;
      const cappedNext = freeOf[d + 1]!;
      let g1 = (r0 | (r0 >>> 1)) & validNext;
      if (capEdits < 1) g1 &= cappedNext;
      let g2 = (r1 | (r1 >>> 1) | (g1 << 1)) & validNext;
      if (capEdits < 2) g2 &= cappedNext | (capEdits < 1 ? 0 : g1);
      rows[next + SKIP] = (edits === 2 ? g2 : edits === 1 ? g1 : 0) === 0 ? 1 : 0;
      d++;
    }
  }

  /** Sets the children of `node` to visit at `at`: all of them, or the one spelling the word's next letter. */
  #children(trie: WalkTrie, node: number, exact: boolean, at: number): void {
    const rows = this.#rows;
    if (!exact) {
      rows[at + NEXT] = trie.nodeFirstChild[node]!;
      rows[at + END] = trie.nodeFirstChild[node + 1]!;
      return;
    }
    // The node's depth is at / STRIDE − 2; the child's letter is the word's next.
    const child = childOf(trie, node, this.#letters[at / STRIDE - 1 + MAX_EDITS]!);
    rows[at + NEXT] = child < 0 ? 0 : child;
    rows[at + END] = child < 0 ? 0 : child + 1;
  }
}
