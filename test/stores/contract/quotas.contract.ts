// QuotaCounter: the rate limits' windows, shared by every process on the store.
import { describe, expect, test } from 'vitest';
import type { QuotaCounter } from '../../../src/domain/metering/metering.ports.ts';
import type { ContractPart } from './context.ts';

const MINUTE = 60_000;

function counterOf(quotas: QuotaCounter | undefined): QuotaCounter {
  if (!quotas) throw new Error('this store has no shared quota counters');
  return quotas;
}

export const quotasContract: ContractPart = (_target, fixture) => {
  describe('QuotaCounter', () => {
    test('when a key is hit, then each hit counts in one window that ends a window after the first, and keys are apart', async () => {
      const quotas = counterOf(fixture().store.quotas);
      const before = Date.now();
      const first = await quotas.hit('search:u1', MINUTE);
      expect(first.hits).toBe(1);
      expect(first.resetAt.getTime()).toBeGreaterThanOrEqual(before + MINUTE);
      expect(first.resetAt.getTime()).toBeLessThanOrEqual(Date.now() + MINUTE);
      expect(await quotas.hit('search:u1', MINUTE)).toStrictEqual({ hits: 2, resetAt: first.resetAt });
      expect((await quotas.hit('search:u2', MINUTE)).hits).toBe(1);
      expect(await quotas.get('search:u1')).toStrictEqual({ hits: 2, resetAt: first.resetAt });
      expect(await quotas.get('search:nobody')).toBeUndefined();
    });

    test('when a window is over, then the next hit starts a new one at 1, and get sees none', async () => {
      const quotas = counterOf(fixture().store.quotas);
      await quotas.hit('k', 30);
      await quotas.hit('k', 30);
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(await quotas.get('k')).toBeUndefined();
      const next = await quotas.hit('k', MINUTE);
      expect(next.hits).toBe(1);
      expect(next.resetAt.getTime()).toBeGreaterThan(Date.now() + MINUTE / 2);
    });

    test('when a hit is taken back or the key reset, then the count goes down, never below 0, or starts again', async () => {
      const quotas = counterOf(fixture().store.quotas);
      await quotas.hit('k', MINUTE);
      await quotas.hit('k', MINUTE);
      await quotas.unhit('k');
      expect((await quotas.get('k'))?.hits).toBe(1);
      await quotas.unhit('k');
      await quotas.unhit('k');
      expect((await quotas.get('k'))?.hits).toBe(0);
      await quotas.reset('k');
      expect(await quotas.get('k')).toBeUndefined();
      await quotas.unhit('never-hit');
      expect(await quotas.get('never-hit')).toBeUndefined();
    });

    test('when the store is opened again (another process), then it sees the same windows', async () => {
      const f = fixture();
      await counterOf(f.store.quotas).hit('shared', MINUTE);
      const other = await f.reopen();
      expect((await counterOf(other.quotas).hit('shared', MINUTE)).hits).toBe(2);
    });
  });
};
