// A test that takes seconds by its nature (a sweep of whole directory files, forty full garbage
// collections): skipped by `npm run test:fast` (vitest.fast.config.ts sets TEST_FAST), run by
// `npm run test:only` and `npm test`.
import { describe, test } from 'vitest';

/** Whether this run is `npm run test:fast`. */
export const FAST = process.env['TEST_FAST'] === '1';

export const slowTest = test.skipIf(FAST);
export const slowDescribe = describe.skipIf(FAST);
