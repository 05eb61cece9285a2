import type { LinkPurpose, LinkRecord, LinkStore } from '../../../src/domain/ports.ts';

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

  async purgeDead(before: Date): Promise<number> {
    const dead = (l: LinkRecord) => l.expiresAt < before || (l.usedAt !== null && l.usedAt < before);
    const count = this.#links.filter(dead).length;
    this.#links.splice(0, this.#links.length, ...this.#links.filter((l) => !dead(l)));
    return count;
  }
}
