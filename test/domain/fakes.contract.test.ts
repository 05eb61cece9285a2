// The adapters' contract suite, run over the in-memory fakes of the domain tests: the fakes obey
// the same rules as the SQLite and MongoDB stores, so a domain test on them means what it says.
// The catalog and import parts are left out: they check the adapters' search fields and
// versioned catalog reads, which the domain tests do not use.
import { afterEach, beforeEach, describe } from 'vitest';
import { memoryStore } from '../support/fakes/index.ts';
import { schoolsContract } from '../stores/contract/schools.contract.ts';
import { requestsContract } from '../stores/contract/requests.contract.ts';
import type { StoreFixture, StoreTarget } from '../stores/contract/target.ts';
import { tokensContract } from '../stores/contract/tokens.contract.ts';
import { linksContract } from '../stores/contract/links.contract.ts';
import { outboxContract } from '../stores/contract/outbox.contract.ts';
import { usersContract } from '../stores/contract/users.contract.ts';

const target: StoreTarget = {
  name: 'in-memory fakes',
  async create() {
    const store = memoryStore();
    // In memory, "reopened" is the same store: what was written is still there.
    return { store, reopen: async () => store, dispose: async () => undefined };
  },
};

describe(`store contract: ${target.name}`, () => {
  let fixture: StoreFixture | undefined;
  beforeEach(async () => {
    fixture = await target.create();
  });
  afterEach(() => {
    fixture = undefined;
  });
  const current = () => {
    if (!fixture) throw new Error('no fixture');
    return fixture;
  };
  usersContract(target, current);
  linksContract(target, current);
  outboxContract(target, current);
  tokensContract(target, current);
  requestsContract(target, current);
  schoolsContract(target, current);
});
