// The MongoDB store's index set-up without a server (issue 43, L1 and L6): the indexes a query's
// sort needs, and two instances of a new version dropping the same outdated index at once. A
// stand-in of the driver's Db holds the indexes and answers as a server does (createIndexes of an
// existing definition is a no-op; dropIndex of a missing one fails with code 27, IndexNotFound).
// The servers themselves run the same set-up in test/stores/mongodb-storage.test.ts.
import { type Db, MongoServerError } from 'mongodb';
import { describe, expect, test } from 'vitest';
import { COLLECTIONS } from '../../src/stores/mongodb/documents.ts';
import { ensureIndexes, INDEXES, OUTDATED } from '../../src/stores/mongodb/indexes.ts';

/** A stand-in Db: each collection's index names; `listed` resolves once `instances` listings of the outbox are out. */
function standInDb(start: Record<string, string[]>, instances: number) {
  const indexes = new Map(Object.entries(start).map(([c, names]) => [c, new Set(names)]));
  let listings = 0;
  let release!: () => void;
  const allListed = new Promise<void>((resolve) => {
    release = resolve;
  });
  const drops: string[] = [];
  const db = {
    collection(name: string) {
      const own = indexes.get(name) ?? new Set<string>();
      indexes.set(name, own);
      return {
        async createIndexes(list: { name?: string }[]) {
          for (const i of list) own.add(i.name!);
          return list.map((i) => i.name!);
        },
        listIndexes() {
          return {
            async toArray() {
              const snapshot = [...own].map((n) => ({ name: n, key: {} }));
              if (name === COLLECTIONS.outbox) {
                // Every instance lists before any drops: the race of two starts, made rather than hoped for.
                if (++listings === instances) release();
                await allListed;
              }
              return snapshot;
            },
          };
        },
        async dropIndex(index: string) {
          drops.push(`${name}.${index}`);
          if (!own.delete(index))
            throw new MongoServerError({ message: `index not found with name [${index}]`, code: 27 });
          return {};
        },
      };
    },
  };
  return { db: db as unknown as Db, indexes, drops };
}

describe('outbox indexes', () => {
  test("then the due mail is read in the index's order, its tie-break (_id) included", () => {
    // outbox.store.ts claimDue sorts { nextAttemptAt: 1, _id: 1 }.
    expect(INDEXES.outbox.map((i) => i.key)).toContainEqual({ nextAttemptAt: 1, _id: 1 });
    expect(OUTDATED.outbox).toContain('mail_outbox_due');
  });
});

describe('outdated indexes, two instances', () => {
  test('when two instances of a new version start at once and both find an outdated index, then both start: the later drop finds it gone, which is no failure', async () => {
    const { db, indexes, drops } = standInDb({ [COLLECTIONS.outbox]: ['mail_outbox_due'] }, 2);
    const starts = await Promise.allSettled([ensureIndexes(db, INDEXES), ensureIndexes(db, INDEXES)]);
    expect(starts.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
    // Both tried: the race happened.
    expect(drops.filter((d) => d === `${COLLECTIONS.outbox}.mail_outbox_due`)).toHaveLength(2);
    expect([...indexes.get(COLLECTIONS.outbox)!]).toEqual(['mail_outbox_due_by_id', 'mail_outbox_discard']);
  });

  test('when a drop fails otherwise, then the start fails with it', async () => {
    const { db } = standInDb({ [COLLECTIONS.outbox]: ['mail_outbox_due'] }, 1);
    const failing = Object.create(db) as Db;
    failing.collection = ((name: string) => {
      const c = db.collection(name);
      return Object.assign(Object.create(c), {
        dropIndex: async () => {
          throw new MongoServerError({ message: 'not authorized', code: 13 });
        },
      });
    }) as Db['collection'];
    await expect(ensureIndexes(failing, INDEXES)).rejects.toMatchObject({ code: 13 });
  });
});
