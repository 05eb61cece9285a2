import type {
  CredentialState,
  HeldToken,
  KeyChange,
  PasswordChangeRecord,
  TokenRecord,
  TokenStore,
} from '../../../src/domain/accounts/accounts.ports.ts';

const live = (t: TokenRecord, now: Date) => t.revokedAt === null && t.expiresAt > now;

/** Tokens in insertion order; the same rules as src/stores/sqlite/token.store.ts. */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens: TokenRecord[] = [];
  /** Each token as findHeld last found it. */
  readonly #found = new Map<string, HeldToken>();
  /** The credential state of an account now (memoryStore wires the users' store): every account is at 0 without it. */
  holderOf: (userId: string) => Promise<CredentialState | null> = async () => ({
    passwordVersion: 0,
    keysFromVersion: 0,
  });

  async insert(token: TokenRecord): Promise<void> {
    this.#tokens.push({ ...token });
  }

  async findByDigest(digest: string): Promise<TokenRecord | null> {
    return this.#tokens.find((t) => t.digest === digest) ?? null;
  }

  async findHeld(digest: string): Promise<HeldToken | null> {
    const token = this.#tokens.find((t) => t.digest === digest);
    const holder = token ? await this.holderOf(token.userId) : null;
    if (!token || !holder) return null;
    const held = { token, holder };
    this.#found.set(digest, held);
    return held;
  }

  /**
   * As found last, or as this store last recorded its use (TokenStore.remembered): any other
   * change since is not seen, as one made through another process (the SQLite store also
   * forgets on its own changes; nothing in the domain depends on that).
   */
  remembered(digest: string): HeldToken | undefined {
    return this.#found.get(digest);
  }

  /** The token as stored now (MemoryRequestLog's madeWith). */
  current(tokenId: string): TokenRecord | undefined {
    return this.#tokens.find((t) => t.id === tokenId);
  }

  /** Newest first (equal times: the later inserted first). */
  async listLive(userId: string, now: Date): Promise<TokenRecord[]> {
    return this.#newestFirst().filter((t) => t.userId === userId && live(t, now));
  }

  async revoke(userId: string, tokenId: string, now: Date): Promise<boolean> {
    const i = this.#tokens.findIndex((t) => t.id === tokenId && t.userId === userId && live(t, now));
    if (i < 0) return false;
    this.#tokens[i] = { ...this.#tokens[i]!, revokedAt: now };
    return true;
  }

  async updateKey(userId: string, tokenId: string, change: KeyChange, now: Date): Promise<TokenRecord | null> {
    const i = this.#tokens.findIndex(
      (t) => t.id === tokenId && t.userId === userId && t.kind === 'key' && live(t, now),
    );
    if (i < 0) return null;
    const t = this.#tokens[i]!;
    const next: TokenRecord = {
      ...t,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.publishable !== undefined && t.publishable ? { publishable: change.publishable } : {}),
    };
    this.#tokens[i] = next;
    return next;
  }

  async rotate(userId: string, oldId: string, next: TokenRecord, now: Date): Promise<boolean> {
    if (!(await this.revoke(userId, oldId, now))) return false;
    await this.insert(next);
    return true;
  }

  async revokeAllExcept(userId: string, keepId: string, now: Date): Promise<number> {
    return this.#revokeWhere((t) => t.userId === userId && t.id !== keepId && live(t, now), now);
  }

  async revokeAllButNewest(userId: string, keep: number, now: Date): Promise<number> {
    const sessions = (await this.listLive(userId, now)).filter((t) => t.kind === 'session');
    const kept = new Set(sessions.slice(0, keep).map((t) => t.id));
    return this.#revokeWhere((t) => sessions.some((s) => s.id === t.id) && !kept.has(t.id), now);
  }

  async insertSession(token: TokenRecord, keep: number, now: Date): Promise<number | null> {
    if ((await this.holderOf(token.userId))?.passwordVersion !== token.passwordVersion) return null;
    await this.insert(token);
    return this.revokeAllButNewest(token.userId, keep, now);
  }

  /** UserStore.setPassword's part (MemoryUserStore calls it): the kept token carried over, the others revoked. */
  passwordChanged(change: PasswordChangeRecord, version: number): void {
    const { userId, now } = change;
    for (let i = 0; i < this.#tokens.length; i++) {
      const t = this.#tokens[i]!;
      if (t.userId !== userId || !live(t, now)) continue;
      if (t.id === change.keepTokenId) this.#tokens[i] = { ...t, passwordVersion: version, authenticatedAt: now };
      else if (t.kind === 'session' || change.revokeKeys) this.#tokens[i] = { ...t, revokedAt: now };
    }
  }

  async touch(tokenId: string, now: Date, notBefore: Date): Promise<void> {
    const i = this.#tokens.findIndex((t) => t.id === tokenId && (t.lastUsedAt === null || t.lastUsedAt < notBefore));
    if (i >= 0) this.#tokens[i] = { ...this.#tokens[i]!, lastUsedAt: now };
    // Its own write, as the SQLite store keeps it in what it remembers.
    const held = i >= 0 ? this.#found.get(this.#tokens[i]!.digest) : undefined;
    if (held) this.#found.set(this.#tokens[i]!.digest, { ...held, token: this.#tokens[i]! });
  }

  async purgeDead(before: Date): Promise<number> {
    const dead = (t: TokenRecord) => t.expiresAt < before || (t.revokedAt !== null && t.revokedAt < before);
    const count = this.#tokens.filter(dead).length;
    this.#tokens.splice(0, this.#tokens.length, ...this.#tokens.filter((t) => !dead(t)));
    return count;
  }

  #newestFirst(): TokenRecord[] {
    return this.#tokens
      .map((t, i) => [t, i] as const)
      .sort(([a, i], [b, j]) => b.createdAt.getTime() - a.createdAt.getTime() || j - i)
      .map(([t]) => t);
  }

  #revokeWhere(match: (t: TokenRecord) => boolean, now: Date): number {
    let count = 0;
    for (let i = 0; i < this.#tokens.length; i++) {
      if (!match(this.#tokens[i]!)) continue;
      this.#tokens[i] = { ...this.#tokens[i]!, revokedAt: now };
      count++;
    }
    return count;
  }
}
