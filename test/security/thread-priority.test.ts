// Password hashing runs on libuv's thread pool at a lower CPU priority than the event loop, and
// at most N hashes at once (src/security/): a burst of logins cannot starve the searches.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Argon2Hasher } from '../../src/security/argon2.hasher.ts';
import { Slots } from '../../src/security/slots.ts';
import { lowerThreadPoolPriority } from '../../src/security/thread-priority.ts';

/** nice value of each thread of this process, by its name. */
function niceByThread(): { name: string; nice: number }[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Field 19 is nice; fields are counted after the command name, which may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), nice: Number(fields[16]) };
  });
}

describe('password hashing', () => {
  test.skipIf(process.platform !== 'linux')(
    'when the thread pool is lowered, then its threads run at nice 10 and the main thread is unchanged',
    async () => {
      await new Argon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }).hash('x');
      const mainBefore = niceByThread().find((t) => t.name !== 'libuv-worker')!.nice;
      expect(lowerThreadPoolPriority()).toBeGreaterThan(0);
      const threads = niceByThread();
      expect(threads.filter((t) => t.name === 'libuv-worker').map((t) => t.nice)).toEqual(expect.arrayContaining([10]));
      expect(new Set(threads.filter((t) => t.name === 'libuv-worker').map((t) => t.nice))).toEqual(new Set([10]));
      expect(threads[0]!.nice).toBe(mainBefore);
    },
  );

  test('when more tasks are given than there are slots, then no more than that many run at once, in order, and all finish', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(n);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        if (n === 3) throw new Error('a failing task frees its slot too');
        return n;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
  });

  test('when the hasher has one slot, then concurrent hashes and verifications still all complete', async () => {
    const hasher = new Argon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }, 1);
    const hashes = await Promise.all(['a', 'b', 'c'].map((p) => hasher.hash(p)));
    expect(await Promise.all(hashes.map((h, i) => hasher.verify(h, ['a', 'b', 'c'][i]!)))).toEqual([true, true, true]);
  });
});
