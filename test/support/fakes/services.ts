// The domain's services wired by the composition root's own createServices, on the fakes.
import type { EngineQuery, SearchEngine } from '../../../src/domain/search/engine.port.ts';
import type { RetentionPolicy } from '../../../src/domain/metering/retention.ts';
import { unmanaged } from '../../../src/search/managed.engine.ts';
import { createServices } from '../../../src/composition/services.ts';
import { FakeClock } from './clock.ts';
import { FakeHasher } from './hasher.ts';
import { memoryStore } from './index.ts';

/** An engine that answers every query with the same hits, and remembers what it was asked. */
export function recordingEngine(): SearchEngine & { readonly queries: EngineQuery[] } {
  const queries: EngineQuery[] = [];
  return {
    queries,
    async search(query) {
      queries.push(query);
      const school = {
        id: '00000000-0000-4000-8000-0000000000a1',
        name: 'Harvard University',
        city: 'Cambridge',
        state: 'MA',
        imageUrl: null,
      };
      return { total: 1, hits: query.offset === 0 ? [{ school, score: 1 }] : [] };
    },
  };
}

export function fakeServices(
  options: { retention?: RetentionPolicy; tokenTtlSeconds?: number; sessionMaxSeconds?: number } = {},
) {
  const store = memoryStore();
  const clock = new FakeClock();
  const hasher = new FakeHasher();
  const engine = recordingEngine();
  const services = createServices({
    store,
    hasher,
    clock,
    engine: unmanaged(engine),
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    ...(options.sessionMaxSeconds ? { sessionMaxSeconds: options.sessionMaxSeconds } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
  });
  /** A user with a live session: its principal. */
  const signedIn = async (email = 'ada@example.com', password = 'correct-horse-1') => {
    await services.auth.createUser(email, password);
    const token = await services.auth.login(email, password);
    return { token, principal: await services.auth.authenticate(token.value) };
  };
  return { services, store, clock, hasher, engine, signedIn };
}
