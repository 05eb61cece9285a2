// The trie of the index's vocabulary, as arrays: breadth first, each node's children contiguous
// and sorted by character (so one array of offsets says where every node's children are), each
// node knowing the range of term ids below it (the vocabulary is sorted, so a prefix's terms are
// one range). Prefixes are a walk down it; typos a bounded walk over it (typos.ts).
import { U32 } from './u32.ts';

/** nodeLongest's value for a branch whose longest term has that many letters or more. */
export const LONGEST_UNKNOWN = 255;

export interface Trie {
  readonly nodeChar: Uint16Array;
  /** Node n's children are nodeFirstChild[n] .. nodeFirstChild[n + 1] − 1: one entry more than there are nodes. */
  readonly nodeFirstChild: Uint32Array;
  readonly nodeLo: Uint32Array;
  readonly nodeHi: Uint32Array;
  readonly nodeTerm: Int32Array;
  /** The letters of the longest term at or below each node (at most LONGEST_UNKNOWN): how deep a typo of a prefix can end (typos.ts). */
  readonly nodeLongest: Uint8Array;
}

/** The trie of a sorted vocabulary, breadth first: a node's children are contiguous and sorted by character. */
export function buildTrie(vocabulary: readonly string[]): Trie {
  const char = new U32();
  const depth = new U32();
  const lo = new U32();
  const hi = new U32();
  char.push(0);
  depth.push(0);
  lo.push(0);
  hi.push(vocabulary.length);
  const firstChild = new U32();
  const term = new U32();
  for (let n = 0; n < char.length; n++) {
    const d = depth.data[n]!;
    const end = hi.data[n]!;
    let i = lo.data[n]!;
    if (i < end && vocabulary[i]!.length === d) term.push(i++);
    else term.push(0xffffffff);
    firstChild.push(char.length);
    while (i < end) {
      const c = vocabulary[i]!.charCodeAt(d);
      let j = i + 1;
      while (j < end && vocabulary[j]!.charCodeAt(d) === c) j++;
      char.push(c);
      depth.push(d + 1);
      lo.push(i);
      hi.push(j);
      i = j;
    }
  }
  firstChild.push(char.length);
  const nodeFirstChild = firstChild.done();
  // Children come after their parent: one pass from the last node up.
  const longest = new Uint8Array(char.length);
  for (let n = char.length - 1; n >= 0; n--) {
    let most = term.data[n] === 0xffffffff ? 0 : Math.min(depth.data[n]!, LONGEST_UNKNOWN);
    for (let child = nodeFirstChild[n]!; child < nodeFirstChild[n + 1]!; child++)
      most = Math.max(most, longest[child]!);
    longest[n] = most;
  }
  return {
    nodeChar: Uint16Array.from(char.done()),
    nodeFirstChild,
    nodeLo: lo.done(),
    nodeHi: hi.done(),
    nodeTerm: new Int32Array(term.done().buffer),
    nodeLongest: longest,
  };
}

/** The child of `node` for character `c`, or -1. */
export function childOf(trie: Pick<Trie, 'nodeChar' | 'nodeFirstChild'>, node: number, c: number): number {
  let low = trie.nodeFirstChild[node]!;
  let high = trie.nodeFirstChild[node + 1]! - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const m = trie.nodeChar[mid]!;
    if (m === c) return mid;
    if (m < c) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}
