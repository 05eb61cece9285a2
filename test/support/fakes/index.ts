// In-memory fakes of the domain's ports (each slice's `*.ports.ts` in src/domain/), for the domain tests
// (test/domain/): honest small implementations, checked against the adapters' contract suite
// where it applies (test/domain/fakes.contract.test.ts), so that they cannot drift from them.
import type { Store } from '../../../src/domain/store.port.ts';
import { MemoryLinkStore } from './links.ts';
import { MemoryMailOutbox } from './outbox.ts';
import { MemoryRequestLog } from './requests.ts';
import { MemorySchoolStore } from './schools.ts';
import { MemoryTokenStore } from './tokens.ts';
import { MemoryUserStore } from './users.ts';

export { FakeClock } from './clock.ts';
export { FakeHasher } from './hasher.ts';
export { MemoryLinkStore, MemoryMailOutbox, MemoryRequestLog, MemorySchoolStore, MemoryTokenStore, MemoryUserStore };

/** A whole store in memory; `down` makes ping() fail as an unreachable store does. */
export function memoryStore(): Store & { down: Error | undefined; tokens: MemoryTokenStore; users: MemoryUserStore } {
  const tokens = new MemoryTokenStore();
  const users = new MemoryUserStore(tokens);
  tokens.holderOf = async (userId) => {
    const user = await users.findById(userId);
    return user && { passwordVersion: user.passwordVersion, keysFromVersion: user.keysFromVersion };
  };
  return {
    kind: 'memory',
    schools: new MemorySchoolStore(),
    users,
    tokens,
    requests: new MemoryRequestLog(tokens),
    links: new MemoryLinkStore(),
    outbox: new MemoryMailOutbox(),
    quotas: undefined,
    down: undefined,
    async ping() {
      if (this.down) throw this.down;
    },
    async close() {},
  };
}
