// Binary search over the index's sorted arrays (geo cells, equality and id hashes).

/** The first index of a sorted array whose value is at least `value` (its length when none is). */
export function firstAtLeast(sorted: Uint32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
