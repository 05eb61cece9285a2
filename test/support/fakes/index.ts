// In-memory fakes of the domain's ports (src/domain/ports.ts), for the domain tests
// (test/domain/): honest small implementations, checked against the adapters' contract suite
// where it applies (test/domain/fakes.contract.test.ts), so that they cannot drift from them.
import type { Store } from '../../../src/domain/ports.ts';
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
export function memoryStore(): Store & { down: Error | undefined } {
  const tokens = new MemoryTokenStore();
  return {
    kind: 'memory',
    schools: new MemorySchoolStore(),
    users: new MemoryUserStore(),
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
