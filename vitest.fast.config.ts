// `npm run test:fast`: the domain's tests on in-memory fakes (test/domain/), without the app, a
// store file or the run's FerretDB: the inner loop, in seconds. `npm run test:only` runs them too.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/domain/**/*.test.ts'],
    reporters: ['default'],
  },
});
