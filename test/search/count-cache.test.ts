// The counts the MongoDB engines cache per catalog version (candidates.ts, CountCache): only the
// version read last fills the cache, searches that need one count at once share its computation,
// and a count may be given a lifetime within its version (Atlas Search's, issue 26 finding 1).
import { describe, expect, test } from 'vitest';
import { CountCache } from '../../src/search/mongodb/candidates.ts';

/** A count computed when the test says (`resolve`), and how many times it was asked for. */
function deferredCounts() {
  const asked: Array<(n: number) => void> = [];
  return {
    asked,
    compute: () => new Promise<number>((resolve) => asked.push(resolve)),
  };
}

describe('CountCache', () => {
  test('when searches need the same count at once, then it is computed once and each gets it', async () => {
    const cache = new CountCache(async () => '1');
    const version = await cache.version();
    const counts = deferredCounts();
    const waiting = Promise.all([1, 2, 3].map(() => cache.get(version, 'total 0school', counts.compute)));
    await Promise.resolve();
    expect(counts.asked).toHaveLength(1);
    counts.asked[0]!(54_321);
    expect(await waiting).toEqual([54_321, 54_321, 54_321]);
    expect(await cache.get(version, 'total 0school', async () => -1)).toBe(54_321);
  });

  test('when a search still holds the version read before the last one, then its counts are not cached and the newer version keeps its own', async () => {
    let stored = '1';
    let now = 0;
    const cache = new CountCache(async () => stored, { versionTtlMs: 1000, now: () => now });
    const old = await cache.version();
    stored = '2';
    now += 1000;
    const current = await cache.version();
    expect(await cache.get(current, 'count 0zephyr', async () => 1)).toBe(1);
    // The older search's count (taken before the import) answers that search only.
    expect(await cache.get(old, 'count 0zephyr', async () => 0)).toBe(0);
    let recounted = 0;
    expect(await cache.get(current, 'count 0zephyr', async () => ++recounted)).toBe(1);
    expect(recounted).toBe(0);
  });

  test('when counts have a lifetime, then one older than it is counted again, within the same version', async () => {
    let now = 0;
    const cache = new CountCache(async () => '1', { countTtlMs: 10_000, now: () => now });
    const version = await cache.version();
    expect(await cache.get(version, 'count 0zephyr', async () => 0)).toBe(0);
    now += 9_999;
    expect(await cache.get(version, 'count 0zephyr', async () => 1)).toBe(0);
    now += 1;
    expect(await cache.get(version, 'count 0zephyr', async () => 1)).toBe(1);
  });
});
