// The store contract suite (the keyv test-suite pattern): the same tests, given a target, run
// against every adapter, each on a fresh database. An adapter's test file calls
// storeContractSuite once (test/stores/sqlite.test.ts); the parts are split by port.
import { afterEach, beforeEach, describe } from 'vitest';
import type { FixtureGetter } from './context.ts';
import { importContract } from './import.contract.ts';
import { quotasContract } from './quotas.contract.ts';
import { requestsContract } from './requests.contract.ts';
import { schoolsContract } from './schools.contract.ts';
import { catalogContract } from './catalog.contract.ts';
import { storeContract } from './store.contract.ts';
import type { StoreFixture, StoreTarget } from './target.ts';
import { tokensContract } from './tokens.contract.ts';
import { linksContract } from './links.contract.ts';
import { outboxContract } from './outbox.contract.ts';
import { usersContract } from './users.contract.ts';

export function storeContractSuite(target: StoreTarget): void {
  if (target.unavailable !== undefined) {
    const title = `store contract: ${target.name} — skipped: ${target.unavailable}`;
    // Outside a TTY (CI) and with several files, the default reporter prints no titles of
    // skipped tests, only counts: this line is what says that, and why, in every mode.
    console.warn(title);
    // The tests are still registered, so the skipped count shows how much did not run.
    describe.skip(title, () =>
      register(target, () => {
        throw new Error('unreachable: the suite is skipped');
      }),
    );
    return;
  }
  describe(`store contract: ${target.name}`, () => {
    let fixture: StoreFixture | undefined;
    beforeEach(async () => {
      fixture = await target.create();
    });
    afterEach(async () => {
      const done = fixture;
      fixture = undefined;
      await done?.dispose();
    });
    register(target, () => {
      if (!fixture) throw new Error('no fixture: target.create() failed in beforeEach');
      return fixture;
    });
  });
}

function register(target: StoreTarget, fixture: FixtureGetter): void {
  storeContract(target, fixture);
  usersContract(target, fixture);
  linksContract(target, fixture);
  outboxContract(target, fixture);
  tokensContract(target, fixture);
  requestsContract(target, fixture);
  quotasContract(target, fixture);
  schoolsContract(target, fixture);
  catalogContract(target, fixture);
  importContract(target, fixture);
}
