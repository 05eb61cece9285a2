// `npm run test:fast` only (vitest.fast.config.ts): property tests run a tenth of their runs, at
// least five, with the same seeds, so that the inner loop covers every property in seconds. The
// full suite (`npm run test:only`, `npm test`) runs them all.
import type * as FastCheck from 'fast-check';
import { vi } from 'vitest';

const FRACTION = 10;

vi.mock('fast-check', async (importOriginal) => {
  const original = await importOriginal<typeof FastCheck & { default: typeof FastCheck }>();
  const fc = original.default;
  fc.configureGlobal({ numRuns: Math.ceil(100 / FRACTION) });
  const assert = ((property, params) =>
    fc.assert(
      property,
      params && { ...params, numRuns: Math.max(5, Math.ceil((params.numRuns ?? 100) / FRACTION)) },
    )) as typeof fc.assert;
  return { ...original, assert, default: { ...fc, assert } };
});
