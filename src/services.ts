// Wires the domain services onto a store. Used by the composition root (src/main.ts), the
// command line (src/cli/) and the tests, so all three run the same objects.
import { AccountService } from './domain/account.service.ts';
import { AuthService } from './domain/auth.service.ts';
import type { Clock, PasswordHasher, Store } from './domain/ports.ts';
import { SearchService } from './domain/search.service.ts';

export interface Services {
  readonly store: Store;
  readonly auth: AuthService;
  readonly search: SearchService;
  readonly account: AccountService;
}

export const systemClock: Clock = { now: () => new Date() };

export function createServices(deps: {
  store: Store;
  hasher: PasswordHasher;
  clock?: Clock;
  tokenTtlSeconds: number;
}): Services {
  const { store, hasher, clock = systemClock } = deps;
  return {
    store,
    auth: new AuthService({ users: store.users, tokens: store.tokens, hasher, clock, settings: { tokenTtlSeconds: deps.tokenTtlSeconds } }),
    search: new SearchService({ schools: store.schools, requests: store.requests, clock }),
    account: new AccountService({ users: store.users, tokens: store.tokens, requests: store.requests, clock }),
  };
}
