// What every part of the store contract suite is given, and the one way a test that needs a
// capability skips on a target that lacks it.
import type { TestContext } from 'vitest';
import type { Capability, StoreFixture, StoreTarget } from './target.ts';

/** The fixture of the running test: a fresh database made by the suite's beforeEach. */
export type FixtureGetter = () => StoreFixture;

/** One file of the suite: registers its describe block for a target. */
export type ContractPart = (target: StoreTarget, fixture: FixtureGetter) => void;

export interface SuiteOptions {
  /**
   * Runs of the search property (fast-check, fixed seed). Each run makes a fresh database, so a
   * network store asks for few; an embedded one can afford many more.
   */
  readonly propertyRuns?: number;
}

/**
 * Skips the running test when the target lacks `capability`, with the reason. ctx.skip's note is
 * shown only when the reporter prints the test tree (a TTY run of one file, or the verbose
 * reporter); the warning names the test and the reason in every reporter mode, CI included.
 */
export function requires(ctx: TestContext, target: StoreTarget, capability: Capability): void {
  const reason = target.missing?.[capability];
  if (reason === undefined) return;
  const note = `${target.name} lacks '${capability}': ${reason}`;
  console.warn(`skipped: ${note}`);
  ctx.skip(true, note);
}
