// What FerretDB v1 (the wire-protocol server the MongoDB adapter is tested on here) lacks, as the
// docs state it (docs/stores.md): text indexes and $text, TTL and partial indexes, $facet, $meta and the
// array expressions of the $text engine's ranking pipeline. The tests that need those are
// skipped on FerretDB with this reason, and run on MongoDB in the GitHub workflow. Should a
// FerretDB upgrade gain one of them, the test naming it fails: the docs and those skips are then
// out of date. (Replaces the one-off probe script of issue 11, whose findings these are.)
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { FERRETDB_MISSING } from '../../scripts/ferretdb/server.ts';
import { freshDatabaseName } from '../support/mongodb.ts';

const uri = inject('ferretdbUri');

describe.skipIf(!uri)(`FerretDB v1 lacks what the docs say${uri ? '' : ` (skipped: ${FERRETDB_MISSING})`}`, () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    client = await MongoClient.connect(uri);
    db = client.db(freshDatabaseName());
    await db.collection('schools').insertMany([
      { _id: 'a' as never, name: 'harvard university', grams: ['ha', 'ar'], n: 1 },
      { _id: 'b' as never, name: 'yale university', grams: ['ya', 'al'], n: 2 },
    ]);
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
  });

  test('the control: a plain index, a find and a simple pipeline work (the refusals below are not a broken connection)', async () => {
    await db.collection('schools').createIndex({ n: 1 }, { name: 'n_1' });
    expect(await db.collection('schools').countDocuments({ n: { $gte: 1 } })).toBe(2);
    const sorted = await db
      .collection('schools')
      .aggregate([{ $sort: { n: -1 } }, { $limit: 1 }, { $project: { _id: 1 } }])
      .toArray();
    expect(sorted).toEqual([{ _id: 'b' }]);
  });

  test('no text index', async () => {
    await expect(db.collection('schools').createIndex({ name: 'text' }, { name: 'name_text' })).rejects.toThrow();
  });

  test('no $text query', async () => {
    await expect(
      db
        .collection('schools')
        .find({ $text: { $search: 'harvard' } })
        .toArray(),
    ).rejects.toThrow();
  });

  test('no TTL index (expireAfterSeconds)', async () => {
    await expect(
      db.collection('tokens').createIndex({ deadAt: 1 }, { name: 'dead_ttl', expireAfterSeconds: 60 }),
    ).rejects.toThrow();
  });

  test('no partial index (partialFilterExpression)', async () => {
    await expect(
      db
        .collection('requests')
        .createIndex({ userId: 1 }, { name: 'pending', partialFilterExpression: { pending: true } }),
    ).rejects.toThrow();
  });

  test('no $facet', async () => {
    const pipeline = [{ $facet: { total: [{ $count: 'n' }], hits: [{ $limit: 1 }] } }];
    await expect(db.collection('schools').aggregate(pipeline).toArray()).rejects.toThrow();
  });

  test("no $meta ('textScore')", async () => {
    const pipeline = [{ $project: { score: { $meta: 'textScore' } } }];
    await expect(db.collection('schools').aggregate(pipeline).toArray()).rejects.toThrow();
  });

  test('no array expressions of the ranking pipeline ($filter, $map, $setIsSubset)', async () => {
    for (const expression of [
      { $filter: { input: '$grams', as: 'g', cond: { $eq: ['$$g', 'ha'] } } },
      { $map: { input: '$grams', as: 'g', in: '$$g' } },
      { $setIsSubset: [['ha'], '$grams'] },
    ]) {
      await expect(
        db
          .collection('schools')
          .aggregate([{ $project: { x: expression } }])
          .toArray(),
        JSON.stringify(expression),
      ).rejects.toThrow();
    }
  });
});
