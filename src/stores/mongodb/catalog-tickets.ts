// What lets an instance read only the schools an import changed since the version its index
// holds (SchoolStore.catalogChanges), although imports write without a transaction, a batch at a
// time, several at once, and a catalog read sees whatever part of them has landed.
//
// Every import that writes takes a ticket (one more than the last given) before its first write
// and stamps each school it writes with it (`changedIn`). After its last write it gives the
// ticket back and bumps the version, and writes down with the new version that version's floor:
// the lowest ticket still out, or the next to be given when none is. A catalog read at a version
// has seen every write of the tickets below its floor (given back before the version existed)
// and may have seen part of those at or above it; so the schools changed since that read are, at
// most, those stamped at or above the floor: some of them it saw already, which costs only their
// indexing again, and none is missed. A ticket taken after the bump is above the floor too.
//
// All of it lives in the catalog's one document, changed by compare-and-set (the version and the
// last ticket given are the condition), which every server this project runs on does atomically:
// no transaction, no update pipeline (FerretDB v1 has neither).
import type { Collection } from 'mongodb';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import { guarded, isDuplicateKey } from '../../mongodb-shared/errors.ts';
import type { CatalogDocument } from '../../mongodb-shared/school-document.ts';

/**
 * How long a ticket taken and never given back holds the floor down: an import killed mid-way
 * (or failed: its batches stay written until it is run again) would otherwise keep every later
 * version's floor at its ticket, and the changes since any version would grow past the delta
 * limit (a full read each time, as before tickets). An import taking longer than this (a million
 * schools take minutes: docs/performance.md) could have writes after its ticket lapsed missed by
 * a delta until the next full read.
 */
export const TICKET_LAPSE_MS = 24 * 60 * 60 * 1000;
/** Versions whose floor is kept: changes since an older version are not told (a full read). */
export const FLOORS_KEPT = 64;
/** Compare-and-set attempts before giving up (503): only imports racing each other retry. */
const ATTEMPTS = 20;

export class CatalogTickets {
  readonly #catalog: Collection<CatalogDocument>;
  readonly #now: () => number;

  /** `catalog`: the catalog's collection on the primary. */
  constructor(catalog: Collection<CatalogDocument>, now: () => number = Date.now) {
    this.#catalog = catalog;
    this.#now = now;
  }

  /** A ticket for an import's writes, taken before its first. */
  take(): Promise<number> {
    return this.#change((doc, now) => {
      const ticket = (doc?.tickets ?? 0) + 1;
      return { set: { tickets: ticket, open: [...live(doc, now), { ticket, at: new Date(now) }] }, result: ticket };
    });
  }

  /** Gives `ticket` back after the import's last write: the version moves, with its floor. */
  giveBack(ticket: number): Promise<number> {
    return this.#change((doc, now) => {
      const version = (doc?.version ?? 0) + 1;
      const open = live(doc, now).filter((o) => o.ticket !== ticket);
      const floor = Math.min((doc?.tickets ?? 0) + 1, ...open.map((o) => o.ticket));
      const floors = [...(doc?.floors ?? []).filter((f) => f.version < version), { version, floor }];
      return { set: { version, open, floors: floors.slice(-FLOORS_KEPT) }, result: version };
    });
  }

  /** One compare-and-set of the catalog's document: `step` computes the fields to set from it as read. */
  async #change<T>(
    step: (doc: CatalogDocument | null, now: number) => { set: Partial<CatalogDocument>; result: T },
  ): Promise<T> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const doc = await guarded(() => this.#catalog.findOne({ _id: 'schools' }));
      const { set, result } = step(doc, this.#now());
      if (!doc) {
        try {
          await guarded(() => this.#catalog.insertOne({ _id: 'schools', version: 0, ...set }));
          return result;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
      } else {
        // A document of before tickets has none.
        const tickets = doc.tickets === undefined ? { $exists: false } : doc.tickets;
        const changed = await guarded(() =>
          this.#catalog.updateOne({ _id: 'schools', version: doc.version, tickets }, { $set: set }),
        );
        if (changed.matchedCount === 1) return result;
      }
      // Another import changed it meanwhile: read it again, after a moment that differs per attempt.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
    throw new StoreUnavailableError('The catalog is changed by too many imports at once.');
  }
}

/** The tickets still out, but those that lapsed. */
function live(doc: CatalogDocument | null, now: number): { ticket: number; at: Date }[] {
  return (doc?.open ?? []).filter((o) => now - o.at.getTime() < TICKET_LAPSE_MS);
}

/**
 * The lowest ticket whose schools may have changed since the catalog was read at version `since`:
 * undefined when that cannot be told (a version of before tickets, one whose floor is no longer
 * kept, one to come, or a version between that no ticket made: an instance of an earlier release
 * imported, whose writes carry no ticket). When `since` is the current version, +Infinity.
 */
export function floorSince(doc: CatalogDocument | null, since: number): number | undefined {
  const current = doc?.version ?? 0;
  if (since === current) return Number.POSITIVE_INFINITY;
  if (since > current) return undefined;
  const floors = new Map((doc?.floors ?? []).map((f) => [f.version, f.floor]));
  for (let version = since + 1; version <= current; version++) if (!floors.has(version)) return undefined;
  return floors.get(since);
}
