// A MongoDB database in memory for the code that writes plain documents to small collections
// (the Atlas synonym mappings' collections: atlas-search-index.ts, ensureSynonyms): the CRUD calls it
// makes, with filters evaluated by mingo. Each write leaves a snapshot of its collection, so a
// test can see every state a reader (Atlas re-reading a mapping's collection) could have seen.
import { Query } from 'mingo';
import type { Db, Document } from 'mongodb';

export interface MemoryDb {
  readonly db: Db;
  /** The documents of a collection now, in insertion order. */
  docs(name: string): Document[];
  /** Per collection, its contents after each write, oldest first. */
  readonly snapshots: Map<string, Document[][]>;
}

export function memoryDb(): MemoryDb {
  const collections = new Map<string, Document[]>();
  const snapshots = new Map<string, Document[][]>();
  const docs = (name: string) => collections.get(name) ?? [];
  const write = (name: string, next: Document[]) => {
    collections.set(name, next);
    snapshots.set(name, [...(snapshots.get(name) ?? []), next.map((d) => structuredClone(d))]);
  };
  const matches = (filter: Document) => {
    const query = new Query(filter);
    return (d: Document) => query.test(d);
  };
  const replace = (name: string, filter: Document, replacement: Document, upsert: boolean) => {
    const current = docs(name);
    const at = current.findIndex(matches(filter));
    if (at >= 0) {
      write(
        name,
        current.map((d, i) => (i === at ? { _id: d['_id'], ...structuredClone(replacement) } : d)),
      );
      return { matchedCount: 1, upsertedCount: 0 };
    }
    if (!upsert) return { matchedCount: 0, upsertedCount: 0 };
    write(name, [...current, { _id: filter['_id'], ...structuredClone(replacement) }]);
    return { matchedCount: 0, upsertedCount: 1 };
  };
  const collection = (name: string) => ({
    find: (filter: Document = {}) => {
      let sort: Document = {};
      const cursor = {
        sort: (by: Document) => {
          sort = by;
          return cursor;
        },
        toArray: async () => {
          const found = docs(name)
            .filter(matches(filter))
            .map((d) => structuredClone(d));
          const keys = Object.entries(sort) as [string, number][];
          return found.sort((a, b) => {
            for (const [k, dir] of keys) if (a[k] !== b[k]) return (a[k] < b[k] ? -1 : 1) * dir;
            return 0;
          });
        },
      };
      return cursor;
    },
    insertMany: async (inserted: Document[]) => {
      write(name, [...docs(name), ...inserted.map((d) => structuredClone(d))]);
      return { insertedCount: inserted.length };
    },
    deleteMany: async (filter: Document = {}) => {
      const test = matches(filter);
      const before = docs(name);
      write(
        name,
        before.filter((d) => !test(d)),
      );
      return { deletedCount: before.length - docs(name).length };
    },
    replaceOne: async (filter: Document, replacement: Document, options: { upsert?: boolean } = {}) =>
      replace(name, filter, replacement, options.upsert === true),
    bulkWrite: async (operations: Document[]) => {
      let upsertedCount = 0;
      for (const op of operations) {
        const one = op['replaceOne'];
        if (!one) throw new Error(`bulkWrite ${JSON.stringify(op)}: update the memory db`);
        upsertedCount += replace(name, one.filter, one.replacement, one.upsert === true).upsertedCount;
      }
      return { upsertedCount };
    },
  });
  return { db: { collection } as unknown as Db, docs, snapshots };
}
