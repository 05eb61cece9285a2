// `npm run test:fast`: the inner loop, in seconds. The domain's tests on in-memory fakes
// (test/domain/), the search wing's (test/search/: the in-process index and the MongoDB engines
// against the reference engine, over stand-ins), and the HTTP layer on the fakes (test/http/):
// no store file, no FerretDB, no browser. Property tests run a tenth of their runs here
// (test/support/fast-runs.ts), and the few slow by nature (whole directory files, forty full garbage
// collections) are left out (test/support/slow.ts); `npm run test:only` and `npm test` run them all.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/domain/**/*.test.ts', 'test/search/**/*.test.ts', 'test/http/**/*.test.ts'],
    setupFiles: ['test/support/fast-runs.ts'],
    // Tests that take seconds by their nature skip themselves (test/support/slow.ts).
    env: { TEST_FAST: '1' },
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
  },
});
