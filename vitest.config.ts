import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test file starts its own app on a fresh temporary store, so files run in parallel.
    pool: 'forks',
    // At least two files at a time. Vitest's default is CPUs − 1, one file at a time on a 2-CPU
    // machine, but most files spend their time waiting (sockets, child processes, timers, argon2
    // on the thread pool) rather than computing: on 2 vCPUs the suite took 216 s with two
    // against 345 s with one, and `npm run test:ferretdb` 98 s against 122 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
