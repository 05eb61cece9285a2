// What every part of the store contract suite is given.
import type { StoreFixture, StoreTarget } from './target.ts';

/** The fixture of the running test: a fresh database made by the suite's beforeEach. */
export type FixtureGetter = () => StoreFixture;

/** One file of the suite: registers its describe block for a target. */
export type ContractPart = (target: StoreTarget, fixture: FixtureGetter) => void;
