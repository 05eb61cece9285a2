// Fixed-size bitsets over document numbers (32 per word): the sets a query combines.

export function wordsFor(docCount: number): number {
  return Math.ceil(docCount / 32);
}

export function popcount(set: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < set.length; i++) {
    let x = set[i]!;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    x = (x + (x >>> 4)) & 0x0f0f0f0f;
    n += Math.imul(x, 0x01010101) >>> 24;
  }
  return n;
}

/** out = a AND b (out may be a); returns how many documents out holds. */
export function andCount(out: Uint32Array, a: Uint32Array, b: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < out.length; i++) {
    let x = a[i]! & b[i]!;
    out[i] = x;
    if (x === 0) continue;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    x = (x + (x >>> 4)) & 0x0f0f0f0f;
    n += Math.imul(x, 0x01010101) >>> 24;
  }
  return n;
}

export function has(set: Uint32Array, doc: number): boolean {
  return (set[doc >>> 5]! & (1 << (doc & 31))) !== 0;
}

/** out = a AND b (out may be a). */
export function and(out: Uint32Array, a: Uint32Array, b: Uint32Array): Uint32Array {
  for (let i = 0; i < out.length; i++) out[i] = a[i]! & b[i]!;
  return out;
}
