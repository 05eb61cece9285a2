// What the store under test cannot do. On FerretDB (npm run test:ferretdb) the tests that need
// the school search are skipped with the reason, so the run reports them instead of failing
// them, and never counts them as passed.
import { describe, type TestContext } from 'vitest';
import { FERRETDB_MISSING, flavorOf, mongoUriFromEnv } from './mongodb.ts';

const uri = mongoUriFromEnv();

/** Why the school search cannot run on the store under test, or undefined when it can. */
export const SEARCH_MISSING: string | undefined = uri && (await flavorOf(uri)) === 'ferretdb' ? FERRETDB_MISSING.search : undefined;

/** In a test that searches: skips it (with the reason) where the store has no search. */
export function needsSearch(ctx: TestContext): void {
  if (SEARCH_MISSING === undefined) return;
  console.warn(`skipped "${ctx.task.name}": ${SEARCH_MISSING}`);
  ctx.skip(true, SEARCH_MISSING);
}

/** A describe block all of whose tests search: skipped as a whole, the reason in its title. */
export const describeSearching: typeof describe =
  SEARCH_MISSING === undefined
    ? describe
    : (((name: string, fn: () => void) => describe.skip(`${name} — skipped: ${SEARCH_MISSING}`, fn)) as unknown as typeof describe);
