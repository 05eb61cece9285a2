// Deterministic randomness for the bench: the same seed gives the same catalog and the same queries.

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function one<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

/** A picker over weighted items (binary search over cumulative weights). */
export function weighted<T>(items: ReadonlyArray<readonly [T, number]>): (rng: Rng) => T {
  const cumulative: number[] = [];
  let sum = 0;
  for (const [, w] of items) {
    sum += w;
    cumulative.push(sum);
  }
  return (rng) => {
    const x = rng() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo]![0];
  };
}

/** The items in a random order (Fisher–Yates, from the end), drawn from `rng`: the same order for the same seed. */
export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
