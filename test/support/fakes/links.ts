import type { LinkPurpose, LinkRecord, LinkStore } from '../../../src/domain/accounts/accounts.ports.ts';

const live = (l: LinkRecord, now: Date) => l.usedAt === null && l.expiresAt > now;

/** Links in an array; the same rules as src/stores/sqlite/link.store.ts. */
export class MemoryLinkStore implements LinkStore {
  readonly #links: LinkRecord[] = [];

  async insert(link: LinkRecord): Promise<void> {
    if (this.#links.some((l) => l.digest === link.digest)) throw new Error('duplicate digest');
    this.#links.push({ ...link });
  }

  async findLive(digest: string, purpose: LinkPurpose, now: Date): Promise<LinkRecord | null> {
    return this.#links.find((l) => l.digest === digest && l.purpose === purpose && live(l, now)) ?? null;
  }

  async use(digest: string, purpose: LinkPurpose, now: Date): Promise<LinkRecord | null> {
    const i = this.#links.findIndex((l) => l.digest === digest && l.purpose === purpose && live(l, now));
    if (i < 0) return null;
    this.#links[i] = { ...this.#links[i]!, usedAt: now };
    return this.#links[i]!;
  }

  async useAll(email: string, purpose: LinkPurpose, now: Date): Promise<number> {
    let count = 0;
    this.#links.forEach((l, i) => {
      if (l.email === email && l.purpose === purpose && live(l, now)) {
        this.#links[i] = { ...l, usedAt: now };
        count++;
      }
    });
    return count;
  }

  async findPending(email: string, purpose: LinkPurpose, expiresAfter: Date): Promise<LinkRecord | null> {
    // Newest first by creation; among equal times the last inserted.
    const pending = this.#links
      .map((l, i) => [l, i] as const)
      .filter(([l]) => l.email === email && l.purpose === purpose && live(l, expiresAfter))
      .sort(([a, i], [b, j]) => b.createdAt.getTime() - a.createdAt.getTime() || j - i);
    return pending[0]?.[0] ?? null;
  }

  async noteMailed(id: string, max: number): Promise<boolean> {
    const i = this.#links.findIndex((l) => l.id === id && l.mailed < max);
    if (i < 0) return false;
    this.#links[i] = { ...this.#links[i]!, mailed: this.#links[i]!.mailed + 1 };
    return true;
  }

  async release(id: string, usedAt: Date): Promise<boolean> {
    const i = this.#links.findIndex((l) => l.id === id && l.usedAt?.getTime() === usedAt.getTime());
    if (i < 0) return false;
    this.#links[i] = { ...this.#links[i]!, usedAt: null };
    return true;
  }

  async purgeDead(before: Date): Promise<number> {
    const dead = (l: LinkRecord) => l.expiresAt < before || (l.usedAt !== null && l.usedAt < before);
    const count = this.#links.filter(dead).length;
    this.#links.splice(0, this.#links.length, ...this.#links.filter((l) => !dead(l)));
    return count;
  }
}
