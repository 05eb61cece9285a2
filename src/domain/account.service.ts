// The caller's own account and request history. Every read is keyed by the caller's user id,
// taken from the authenticated token: there is no parameter that could name another user.
import type { Principal } from './auth.service.ts';
import type { Clock, RequestLog, RequestRecord, TokenStore, Usage, UserStore } from './ports.ts';
import { UnauthenticatedError } from './errors.ts';

export interface AccountView {
  readonly userId: string;
  readonly email: string;
  readonly createdAt: Date;
  readonly usage: Usage;
  readonly activeTokens: number;
}

export class AccountService {
  readonly #users: UserStore;
  readonly #tokens: TokenStore;
  readonly #requests: RequestLog;
  readonly #clock: Clock;

  constructor(deps: { users: UserStore; tokens: TokenStore; requests: RequestLog; clock: Clock }) {
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#requests = deps.requests;
    this.#clock = deps.clock;
  }

  async account(principal: Principal): Promise<AccountView> {
    const user = await this.#users.findById(principal.userId);
    // A token outliving its user (deleted by an operator) authenticates nobody.
    if (!user) throw new UnauthenticatedError('unknown');
    const [usage, tokens] = await Promise.all([
      this.#requests.usage(user.id),
      this.#tokens.listLive(user.id, this.#clock.now()),
    ]);
    return { userId: user.id, email: user.email, createdAt: user.createdAt, usage, activeTokens: tokens.length };
  }

  history(principal: Principal, offset: number, limit: number): Promise<{ total: number; records: RequestRecord[] }> {
    return this.#requests.list(principal.userId, offset, limit);
  }
}
