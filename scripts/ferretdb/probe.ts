// Which MongoDB features FerretDB (v1, SQLite backend, as installed by `npm run ferretdb:setup`)
// supports, tried one by one with the official driver: the features the MongoDB store adapter
// uses or might use. One line per feature:
//   <feature>: supported [(details)]
//   <feature>: NOT supported: <server error message> [code N CodeName]
//   <feature>: NOT supported: accepted without error, but <what differs from MongoDB>
//   <feature>: NOT supported: driver refused: <driver error message>
// "supported" means: no error, and the result is what MongoDB gives for the same data (each
// check compares with that expected result, written out below).
// The full output also goes to /tmp/ferretdb-probe.txt.
//
// Usage: node scripts/ferretdb/probe.ts        (npm run ferretdb:probe)
import { writeFileSync } from 'node:fs';
import {
  BSON,
  MongoBulkWriteError,
  MongoClient,
  MongoDriverError,
  MongoServerError,
  ObjectId,
  type Db,
  type Document,
} from 'mongodb';
import { ferretDbBinary, FERRETDB_MISSING, startFerretDb, type FerretDb } from '../../test/support/ferretdb.ts';

const OUTPUT_FILE = '/tmp/ferretdb-probe.txt';
const lines: string[] = [];

function out(line: string): void {
  console.log(line);
  lines.push(line);
}

/** The server accepted the operation, but its result is not MongoDB's. */
class Mismatch extends Error {}

/** Values as relaxed Extended JSON: dates, ObjectIds and numbers shown unambiguously. */
function show(value: unknown): string {
  return BSON.EJSON.stringify(value as Document, { relaxed: true });
}

/** A comparable form: Extended JSON with object keys sorted (array order kept). */
function canonical(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sortKeys(BSON.EJSON.serialize({ v: value } as Document, { relaxed: false })));
}

function expectSame(what: string, actual: unknown, expected: unknown): void {
  if (canonical(actual) !== canonical(expected)) {
    throw new Mismatch(`${what} was ${show(actual)}; MongoDB gives ${show(expected)}`);
  }
}

function describeError(error: unknown): string {
  if (error instanceof Mismatch) return `accepted without error, but ${error.message}`;
  if (error instanceof MongoServerError) {
    const code = error.code === undefined ? '' : ` [code ${error.code}${error.codeName ? ` ${error.codeName}` : ''}]`;
    return `${error.message}${code}`;
  }
  if (error instanceof MongoDriverError) return `driver refused: ${error.name}: ${error.message}`;
  return `probe error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

async function probe(feature: string, run: () => Promise<string | void>): Promise<boolean> {
  try {
    const details = await run();
    out(`${feature}: supported${details ? ` (${details})` : ''}`);
    return true;
  } catch (error) {
    out(`${feature}: NOT supported: ${describeError(error)}`);
    return false;
  }
}

function info(feature: string, text: string): void {
  out(`${feature}: ${text}`);
}

/** Expects the call to fail with a server error of this code; returns that error. */
async function expectServerError(what: string, code: number, call: () => Promise<unknown>): Promise<MongoServerError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof MongoServerError && error.code === code) return error;
    throw error;
  }
  throw new Mismatch(`${what} succeeded; MongoDB fails it with code ${code}`);
}

function duplicateKeyDetails(error: MongoServerError | Document): string {
  const e = error as Document;
  return [
    `code ${e['code']}`,
    `codeName ${e['codeName'] ?? 'absent'}`,
    `keyPattern ${e['keyPattern'] === undefined ? 'absent' : show(e['keyPattern'])}`,
    `keyValue ${e['keyValue'] === undefined ? 'absent' : show(e['keyValue'])}`,
    `message "${e['errmsg'] ?? e['message']}"`,
  ].join(', ');
}

/** Documents of any shape, with an _id of any type (the probe uses strings). */
type Loose = { _id?: string | ObjectId } & Document;

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

async function serverInfo(client: MongoClient): Promise<void> {
  const admin = client.db('admin');
  const pick = (doc: Document, keys: string[]) => Object.fromEntries(keys.filter((k) => k in doc).map((k) => [k, doc[k]]));
  const helloKeys = [
    'isWritablePrimary',
    'ismaster',
    'secondary',
    'setName',
    'hosts',
    'msg',
    'minWireVersion',
    'maxWireVersion',
    'logicalSessionTimeoutMinutes',
    'maxBsonObjectSize',
    'maxMessageSizeBytes',
    'maxWriteBatchSize',
    'readOnly',
  ];
  await probe('hello', async () => {
    const hello = await admin.command({ hello: 1 });
    return `${show(pick(hello, helloKeys))}; setName ${'setName' in hello ? 'present' : 'absent'}`;
  });
  await probe('isMaster', async () => {
    const isMaster = await admin.command({ isMaster: 1 });
    return `${show(pick(isMaster, helloKeys))}; setName ${'setName' in isMaster ? 'present' : 'absent'}`;
  });
  await probe('buildInfo', async () => {
    const buildInfo = await admin.command({ buildInfo: 1 });
    return show(pick(buildInfo, ['version', 'versionArray', 'gitVersion', 'maxBsonObjectSize', 'ferretdbVersion', 'ferretdb', 'ferretdbFeatures']));
  });
}

interface TtlCheck {
  readonly feature: string;
  readonly db: Db;
  readonly collection: string;
  readonly insertedAt: number;
}

async function indexes(db: Db): Promise<TtlCheck[]> {
  const ttlChecks: TtlCheck[] = [];
  const specOf = async (collection: string, name: string) =>
    (await db.collection<Loose>(collection).listIndexes().toArray()).find((i) => i['name'] === name);

  await probe('createIndex unique single field {email:1}', async () => {
    const users = db.collection<Loose>('ix_unique');
    await users.createIndex({ email: 1 }, { name: 'email_unique', unique: true });
    const spec = await specOf('ix_unique', 'email_unique');
    expectSame('listIndexes unique', spec?.['unique'], true);
    await users.insertOne({ email: 'a@example.com' });
    await expectServerError('a second {email: "a@example.com"}', 11000, () => users.insertOne({ email: 'a@example.com' }));
    return 'kept by listIndexes; a duplicate is refused with 11000';
  });

  await probe('createIndexes with the same definition twice (idempotent start-up)', async () => {
    const c = db.collection<Loose>('ix_unique');
    await c.createIndexes([{ name: 'email_unique', key: { email: 1 }, unique: true }]);
    await c.createIndexes([{ name: 'email_unique', key: { email: 1 }, unique: true }]);
  });

  const compoundKeys: Record<string, 1 | -1>[] = [
    { userId: 1, timeMade: -1, _id: -1 },
    { userId: 1, timeMade: -1, _id: -1, cost: 1 },
    { userId: 1, createdAt: -1, seq: -1 },
  ];
  for (const key of compoundKeys) {
    await probe(`createIndex compound ${show(key)}`, async () => {
      await db.collection<Loose>('ix_compound').createIndex(key, { name: Object.keys(key).join('_') });
      const spec = await specOf('ix_compound', Object.keys(key).join('_'));
      // Key order is the index's meaning: compare as a list of [field, direction].
      expectSame('listIndexes key', Object.entries(spec?.['key'] ?? {}), Object.entries(key));
      return 'key and its order kept by listIndexes';
    });
  }

  for (const seconds of [0, 86_400]) {
    const collection = `ix_ttl_${seconds}`;
    const feature = `createIndex TTL {deadAt:1} expireAfterSeconds:${seconds}`;
    const created = await probe(feature, async () => {
      await db.collection<Loose>(collection).createIndex({ deadAt: 1 }, { name: 'dead_ttl', expireAfterSeconds: seconds });
      const spec = await specOf(collection, 'dead_ttl');
      if (spec?.['expireAfterSeconds'] !== seconds) {
        throw new Mismatch(`listIndexes shows ${show(spec ?? null)} (expireAfterSeconds dropped): the option is ignored`);
      }
      return 'created; listIndexes keeps expireAfterSeconds; whether documents expire is checked at the end';
    });
    if (created && seconds === 0) {
      await db.collection<Loose>(collection).insertOne({ _id: 'expired', deadAt: new Date(Date.now() - DAY) });
      ttlChecks.push({ feature: `${feature}: expired documents deleted`, db, collection, insertedAt: Date.now() });
    }
  }

  await probe("createIndex text {'texts.grams':'text'} (no options)", async () => {
    await db.collection<Loose>('ix_text_plain').createIndex({ 'texts.grams': 'text' }, { name: 'text_plain' });
  });
  await probe("createIndex text {'texts.grams':'text'} default_language:'none'", async () => {
    await db.collection<Loose>('ix_text_none').createIndex({ 'texts.grams': 'text' }, { name: 'text_none', default_language: 'none' });
  });
  await probe("createIndex text {'texts.grams':'text', name:'text'} weights {'texts.grams':10, name:1}", async () => {
    await db
      .collection('ix_text_weights')
      .createIndex({ 'texts.grams': 'text', name: 'text' }, { name: 'text_weights', weights: { 'texts.grams': 10, name: 1 }, default_language: 'none' });
  });

  await probe("createIndex partial {email:1} unique, partialFilterExpression {state:'live'}", async () => {
    const c = db.collection<Loose>('ix_partial');
    await c.createIndex({ email: 1 }, { name: 'email_live', unique: true, partialFilterExpression: { state: 'live' } });
    // Outside the filter duplicates are allowed; inside they are refused.
    await c.insertMany([
      { email: 'x', state: 'dead' },
      { email: 'x', state: 'dead' },
      { email: 'x', state: 'live' },
    ]);
    await expectServerError('a second live {email:"x"}', 11000, () => c.insertOne({ email: 'x', state: 'live' }));
  });
  await probe("createIndex partial {email:1} (not unique), partialFilterExpression {state:'live'}", async () => {
    await db.collection<Loose>('ix_partial_plain').createIndex({ email: 1 }, { name: 'email_live_plain', partialFilterExpression: { state: 'live' } });
  });

  await probe('createIndex sparse unique {code:1} (two documents without code)', async () => {
    const c = db.collection<Loose>('ix_sparse');
    await c.createIndex({ code: 1 }, { name: 'code_sparse', unique: true, sparse: true });
    const spec = await specOf('ix_sparse', 'code_sparse');
    try {
      await c.insertMany([{ n: 1 }, { n: 2 }]);
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 11000) {
        throw new Mismatch('the second document without `code` was refused with 11000 (sparse is ignored: missing counts as null)');
      }
      throw error;
    }
    const shown = spec?.['sparse'] === true ? 'listIndexes keeps sparse:true' : `but listIndexes drops sparse:true: ${show(spec ?? null)}`;
    return `both documents stored, as on MongoDB; ${shown}`;
  });

  await probe('createIndex unique {code:1} (not sparse): a second document without code → 11000', async () => {
    const c = db.collection<Loose>('ix_unique_missing');
    await c.createIndex({ code: 1 }, { name: 'code_unique', unique: true });
    await c.insertOne({ n: 1 });
    // MongoDB indexes a missing field as null: a second document without it is a duplicate.
    await expectServerError('a second document without `code`', 11000, () => c.insertOne({ n: 2 }));
  });
  await probe('createIndex unique {code:1} (not sparse): a second {code: null} → 11000', async () => {
    const c = db.collection<Loose>('ix_unique_null');
    await c.createIndex({ code: 1 }, { name: 'code_unique', unique: true });
    await c.insertOne({ code: null });
    await expectServerError('a second {code: null}', 11000, () => c.insertOne({ code: null }));
  });

  return ttlChecks;
}

async function writes(db: Db): Promise<void> {
  const c = db.collection<Loose>('writes');
  await probe("insertOne writeConcern {w:'majority', j:true}", async () => {
    const r = await c.insertOne({ _id: 'wm' }, { writeConcern: { w: 'majority', j: true } });
    expectSame('acknowledged', r.acknowledged, true);
    expectSame('stored', await c.findOne({ _id: 'wm' }), { _id: 'wm' });
  });
  await probe("insertOne writeConcern {w:'majority', journal:true} (the adapter's form)", async () => {
    const r = await c.insertOne({ _id: 'wmj' }, { writeConcern: { w: 'majority', journal: true } });
    expectSame('acknowledged', r.acknowledged, true);
  });
  await probe('insertOne writeConcern {w:1}', async () => {
    const r = await c.insertOne({ _id: 'w1' }, { writeConcern: { w: 1 } });
    expectSame('acknowledged', r.acknowledged, true);
  });

  const u = db.collection<Loose>('dup');
  await u.createIndex({ email: 1 }, { name: 'email_unique', unique: true });
  await u.insertOne({ _id: 'u1', email: 'a@x' });

  await probe('duplicate key on a unique index: insertOne → 11000', async () => {
    const e = await expectServerError('insertOne of a duplicate email', 11000, () => u.insertOne({ _id: 'u2', email: 'a@x' }));
    return duplicateKeyDetails(e);
  });
  await probe('duplicate key on _id: insertOne → 11000', async () => {
    const e = await expectServerError('insertOne of a duplicate _id', 11000, () => u.insertOne({ _id: 'u1', email: 'other@x' }));
    return duplicateKeyDetails(e);
  });

  await probe('insertMany ordered:false with a duplicate in the middle', async () => {
    const m = db.collection<Loose>('many');
    await m.createIndex({ k: 1 }, { name: 'k_unique', unique: true });
    let error: unknown;
    try {
      await m.insertMany(
        [
          { _id: 'm1', k: 1 },
          { _id: 'm2', k: 1 },
          { _id: 'm3', k: 3 },
        ],
        { ordered: false },
      );
    } catch (e) {
      error = e;
    }
    if (!(error instanceof MongoBulkWriteError)) {
      if (error === undefined) throw new Mismatch('no error; MongoDB reports E11000 for the second document');
      throw error;
    }
    const codes = error.writeErrors instanceof Array ? error.writeErrors.map((w) => w.code) : [(error.writeErrors as { code: number }).code];
    expectSame('write error codes', codes, [11000]);
    expectSame('insertedCount', error.result.insertedCount, 2);
    expectSame('stored _ids', (await m.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d._id), ['m1', 'm3']);
    return 'MongoBulkWriteError with one 11000 write error, insertedCount 2, the third document written';
  });

  await probe('bulkWrite ordered:false: replaceOne upsert (update, insert, unchanged) + insertOne; result counts', async () => {
    const b = db.collection<Loose>('bulk');
    await b.insertMany([
      { _id: 'a', v: 1 },
      { _id: 'c', v: 1 },
    ]);
    const r = await b.bulkWrite(
      [
        { replaceOne: { filter: { _id: 'a' }, replacement: { v: 2 }, upsert: true } }, // changes a
        { replaceOne: { filter: { _id: 'b' }, replacement: { v: 1 }, upsert: true } }, // inserts b
        { replaceOne: { filter: { _id: 'c' }, replacement: { v: 1 }, upsert: true } }, // same content
        { insertOne: { document: { _id: 'd', v: 1 } } },
      ],
      { ordered: false },
    );
    expectSame('documents', await b.find({}, { sort: { _id: 1 } }).toArray(), [
      { _id: 'a', v: 2 },
      { _id: 'b', v: 1 },
      { _id: 'c', v: 1 },
      { _id: 'd', v: 1 },
    ]);
    const mismatches: string[] = [];
    const check = (what: string, actual: unknown, expected: unknown) => {
      if (canonical(actual) !== canonical(expected)) mismatches.push(`${what} was ${show(actual)} (MongoDB: ${show(expected)})`);
    };
    check('insertedCount', r.insertedCount, 1);
    check('matchedCount', r.matchedCount, 2);
    check('modifiedCount', r.modifiedCount, 1);
    check('upsertedCount', r.upsertedCount, 1);
    check('deletedCount', r.deletedCount, 0);
    check('upsertedIds', r.upsertedIds, { 1: 'b' });
    if (mismatches.length > 0) throw new Mismatch(`the documents are right, but ${mismatches.join('; ')}`);
    return 'documents and every count as MongoDB';
  });

  await probe("raw `update` command: 3 replacement upserts (changed, new, identical) ordered:false — server reply", async () => {
    const b = db.collection<Loose>('bulk_raw');
    await b.insertMany([
      { _id: 'a', v: 1 },
      { _id: 'c', v: 1 },
    ]);
    const reply = await db.command({
      update: 'bulk_raw',
      ordered: false,
      updates: [
        { q: { _id: 'a' }, u: { v: 2 }, upsert: true },
        { q: { _id: 'b' }, u: { v: 1 }, upsert: true },
        { q: { _id: 'c' }, u: { v: 1 }, upsert: true },
      ],
    });
    const { ok, n, nModified, upserted } = reply;
    const got = { n, nModified, upserted };
    expectSame('reply {n, nModified, upserted}', got, { n: 3, nModified: 1, upserted: [{ index: 1, _id: 'b' }] });
    return show({ ok, ...got });
  });
  await probe('replaceOne with an identical document: modifiedCount 0', async () => {
    const b = db.collection<Loose>('replace_same');
    await b.insertOne({ _id: 'a', v: 1 });
    const r = await b.replaceOne({ _id: 'a' }, { v: 1 });
    expectSame('[matchedCount, modifiedCount]', [r.matchedCount, r.modifiedCount], [1, 0]);
  });

  await probe('bulkWrite replaceOne upsert with a filter on other fields ({userId, key})', async () => {
    const b = db.collection<Loose>('bulk_other');
    const r = await b.bulkWrite([{ replaceOne: { filter: { userId: 'u', key: 'k' }, replacement: { userId: 'u', key: 'k', v: 1 }, upsert: true } }], {
      ordered: false,
    });
    expectSame('upsertedCount', r.upsertedCount, 1);
    const doc = await b.findOne({ userId: 'u' }, { projection: { _id: 0 } });
    expectSame('document', doc, { userId: 'u', key: 'k', v: 1 });
    const id = r.upsertedIds[0];
    return `upsertedIds[0] is ${id instanceof ObjectId ? 'an ObjectId' : show(id)}`;
  });

  await probe('duplicate key in bulkWrite ordered:false → writeErrors 11000, other operations applied', async () => {
    const b = db.collection<Loose>('bulk_dup');
    await b.createIndex({ email: 1 }, { name: 'email_unique', unique: true });
    let error: unknown;
    try {
      await b.bulkWrite(
        [
          { insertOne: { document: { _id: 'x', email: 'e' } } },
          { insertOne: { document: { _id: 'y', email: 'e' } } },
          { replaceOne: { filter: { _id: 'z' }, replacement: { email: 'f' }, upsert: true } },
        ],
        { ordered: false },
      );
    } catch (e) {
      error = e;
    }
    if (!(error instanceof MongoBulkWriteError)) {
      if (error === undefined) throw new Mismatch('no error; MongoDB reports E11000 for the second insert');
      throw error;
    }
    const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    expectSame(
      'write errors (index, code)',
      writeErrors.map((w) => [w.index, w.code]),
      [[1, 11000]],
    );
    expectSame('stored _ids', (await b.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d._id), ['x', 'z']);
    expectSame('result counts', { inserted: error.result.insertedCount, upserted: error.result.upsertedCount }, { inserted: 1, upserted: 1 });
    return `writeErrors[0]: ${duplicateKeyDetails(writeErrors[0]!.err)}`;
  });

  const t = db.collection<Loose>('tokens');
  const now = at(100);
  await t.insertMany([
    { _id: 'live-missing', userId: 'u', expiresAt: at(200) }, // revokedAt absent: matches revokedAt: null
    { _id: 'live-null', userId: 'u', expiresAt: at(300), revokedAt: null },
    { _id: 'expired', userId: 'u', expiresAt: at(50), revokedAt: null },
    { _id: 'revoked', userId: 'u', expiresAt: at(400), revokedAt: at(10) },
  ]);

  await probe("findOneAndUpdate {expiresAt:{$gt:Date}, revokedAt:null} $set, returnDocument:'after'", async () => {
    const doc = await t.findOneAndUpdate(
      { _id: 'live-null', userId: 'u', revokedAt: null, expiresAt: { $gt: now } },
      { $set: { revokedAt: now, deadAt: now } },
      { returnDocument: 'after' },
    );
    expectSame('returned document', doc, { _id: 'live-null', userId: 'u', expiresAt: at(300), revokedAt: now, deadAt: now });
    const none = await t.findOneAndUpdate({ _id: 'expired', revokedAt: null, expiresAt: { $gt: now } }, { $set: { x: 1 } }, { returnDocument: 'after' });
    expectSame('no match (expired)', none, null);
    return 'the updated document; null when nothing matches';
  });

  await probe('filter {revokedAt: null} matches a missing field and an explicit null', async () => {
    const ids = (await t.find({ userId: 'u', revokedAt: null }, { sort: { _id: 1 } }).toArray()).map((d) => d._id);
    expectSame('matched _ids', ids, ['expired', 'live-missing']);
  });

  await probe('updateOne ($set; matchedCount/modifiedCount)', async () => {
    const r = await t.updateOne({ _id: 'live-missing', revokedAt: null, expiresAt: { $gt: now } }, { $set: { revokedAt: now } });
    expectSame('counts', [r.matchedCount, r.modifiedCount], [1, 1]);
    const again = await t.updateOne({ _id: 'live-missing' }, { $set: { revokedAt: now } });
    expectSame('counts of a no-op update', [again.matchedCount, again.modifiedCount], [1, 0]);
  });

  await probe('updateMany with {_id: {$in: [...]}}', async () => {
    const r = await t.updateMany({ _id: { $in: ['expired', 'revoked', 'nope'] } }, { $set: { tag: 1 } });
    expectSame('counts', [r.matchedCount, r.modifiedCount], [2, 2]);
  });

  await probe('deleteMany {deadAt: {$lt: Date}}', async () => {
    await t.updateOne({ _id: 'revoked' }, { $set: { deadAt: at(10) } });
    const r = await t.deleteMany({ deadAt: { $lt: at(99) } });
    expectSame('deletedCount', r.deletedCount, 1);
  });

  await probe('deleteOne', async () => {
    const r = await t.deleteOne({ _id: 'expired' });
    expectSame('deletedCount', r.deletedCount, 1);
    const none = await t.deleteOne({ _id: 'expired' });
    expectSame('deletedCount when nothing matches', none.deletedCount, 0);
  });
}

async function reads(db: Db): Promise<void> {
  const r = db.collection<Loose>('requests');
  // createdAt ties (at(1) twice, at(3) twice) so that the _id tie-break shows.
  const docs = [
    { _id: 'r1', userId: 'u', createdAt: at(1), cost: 1 },
    { _id: 'r2', userId: 'u', createdAt: at(1), cost: 2 },
    { _id: 'r3', userId: 'u', createdAt: at(2), cost: 3 },
    { _id: 'r4', userId: 'u', createdAt: at(3), cost: 4 },
    { _id: 'r5', userId: 'u', createdAt: at(3), cost: 5 },
    { _id: 'r6', userId: 'v', createdAt: at(4), cost: 6 },
  ];
  await r.insertMany(docs);

  await probe('find sort {createdAt:-1, _id:-1}, skip 1, limit 3, projection {cost:1}', async () => {
    const got = await r.find({ userId: 'u' }, { projection: { cost: 1 } }).sort({ createdAt: -1, _id: -1 }).skip(1).limit(3).toArray();
    expectSame('page', got, [
      { _id: 'r4', cost: 4 },
      { _id: 'r3', cost: 3 },
      { _id: 'r2', cost: 2 },
    ]);
  });
  await probe('find projection exclusion {createdAt:0, cost:0}', async () => {
    const got = await r.findOne({ _id: 'r1' }, { projection: { createdAt: 0, cost: 0 } });
    expectSame('document', got, { _id: 'r1', userId: 'u' });
  });
  await probe('find sort {createdAt:-1, seq:-1} with ObjectId seq', async () => {
    const c = db.collection<Loose>('seq');
    const s1 = new ObjectId('000000000000000000000001');
    const s2 = new ObjectId('000000000000000000000002');
    await c.insertMany([
      { _id: 'a', createdAt: at(1), seq: s1 },
      { _id: 'b', createdAt: at(1), seq: s2 },
      { _id: 'c', createdAt: at(0), seq: s2 },
    ]);
    expectSame('order', (await c.find().sort({ createdAt: -1, seq: -1 }).toArray()).map((d) => d._id), ['b', 'a', 'c']);
  });
  await probe('find {_id: {$in: [...]}}', async () => {
    const got = (await r.find({ _id: { $in: ['r2', 'r6', 'zz'] } }).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expectSame('_ids', got, ['r2', 'r6']);
  });

  const s = db.collection<Loose>('schools');
  await s.insertMany([
    { _id: 's1', name: 'ab cd', texts: [{ grams: ['a', 'ab', 'c', 'cd'], length: 5 }] },
    { _id: 's2', name: 'ab / cd', texts: [{ grams: ['a', 'ab'], length: 2 }, { grams: ['c', 'cd'], length: 2 }] },
    { _id: 's3', name: 'xy', texts: [{ grams: ['x', 'xy'], length: 2 }] },
  ]);
  await probe("find {texts: {$elemMatch: {grams: {$all: ['ab','cd']}}}} (array of subdocuments)", async () => {
    const got = (await s.find({ texts: { $elemMatch: { grams: { $all: ['ab', 'cd'] } } } }).toArray()).map((d) => d._id);
    // s2 has both grams, but in two different elements: $elemMatch excludes it.
    expectSame('_ids', got, ['s1']);
  });

  await probe("find {texts: {$elemMatch: {length: 5}}} (one plain field)", async () => {
    const got = (await s.find({ texts: { $elemMatch: { length: 5 } } }).toArray()).map((d) => d._id);
    expectSame('_ids', got, ['s1']);
  });
  await probe("find {texts: {$elemMatch: {grams: 'ab', length: 5}}} (two plain fields)", async () => {
    const got = (await s.find({ texts: { $elemMatch: { grams: 'ab', length: 5 } } }).toArray()).map((d) => d._id);
    expectSame('_ids', got, ['s1']);
  });
  await probe("find {'texts.grams': {$all: ['ab','cd']}} (dot path, no $elemMatch)", async () => {
    const got = (await s.find({ 'texts.grams': { $all: ['ab', 'cd'] } }).sort({ _id: 1 }).toArray()).map((d) => d._id);
    // Without $elemMatch the terms may come from different elements: s1 and s2.
    expectSame('_ids', got, ['s1', 's2']);
  });
  await probe("find {'texts.grams': 'ab'} (dot path into an array of subdocuments)", async () => {
    const got = (await s.find({ 'texts.grams': 'ab' }).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expectSame('_ids', got, ['s1', 's2']);
  });
  await probe("find {'texts.0.grams': {$all: ['ab','cd']}} (array index in the path)", async () => {
    const got = (await s.find({ 'texts.0.grams': { $all: ['ab', 'cd'] } }).toArray()).map((d) => d._id);
    expectSame('_ids', got, ['s1']);
  });
  await probe("find {scores: {$elemMatch: {$gte: 2, $lt: 3}}} (array of numbers, operators only)", async () => {
    const c = db.collection<Loose>('scores');
    await c.insertMany([
      { _id: 'n1', scores: [1, 5] },
      { _id: 'n2', scores: [1, 2] },
    ]);
    const got = (await c.find({ scores: { $elemMatch: { $gte: 2, $lt: 3 } } }).toArray()).map((d) => d._id);
    expectSame('_ids', got, ['n2']);
  });
  await probe("find {grams: {$all: ['ab','cd']}} (array of strings)", async () => {
    const c = db.collection<Loose>('grams');
    await c.insertMany([
      { _id: 'g1', grams: ['ab', 'cd', 'x'] },
      { _id: 'g2', grams: ['ab'] },
    ]);
    const got = (await c.find({ grams: { $all: ['ab', 'cd'] } }).toArray()).map((d) => d._id);
    expectSame('_ids', got, ['g1']);
  });

  await probe('countDocuments with a filter {userId:"u"}', async () => {
    expectSame('count', await r.countDocuments({ userId: 'u' }), 5);
  });
  await probe('countDocuments() without a filter', async () => {
    expectSame('count', await r.countDocuments(), 6);
  });
  await probe('estimatedDocumentCount', async () => {
    expectSame('count', await r.estimatedDocumentCount(), 6);
  });
}

async function aggregation(db: Db): Promise<void> {
  const r = db.collection<Loose>('requests'); // filled by reads()
  const agg = (pipeline: Document[], options: Document = {}) => r.aggregate(pipeline, options).toArray();

  await probe('aggregate $match', async () => {
    expectSame('_ids', (await agg([{ $match: { userId: 'v' } }])).map((d) => d['_id']), ['r6']);
  });
  await probe('aggregate $group {_id:null, count:{$sum:1}}', async () => {
    const got = await agg([{ $match: { userId: 'u' } }, { $group: { _id: null, count: { $sum: 1 } } }]);
    expectSame('result', got, [{ _id: null, count: 5 }]);
  });
  await probe("aggregate $group {_id:null, totalCost:{$sum:'$cost'}}", async () => {
    const got = await agg([{ $match: { userId: 'u' } }, { $group: { _id: null, totalCost: { $sum: '$cost' } } }]);
    expectSame('result', got, [{ _id: null, totalCost: 15 }]);
  });
  await probe("aggregate $group {_id:null, lastAt:{$max:'$createdAt'}}", async () => {
    const got = await agg([{ $match: { userId: 'u' } }, { $group: { _id: null, lastAt: { $max: '$createdAt' } } }]);
    expectSame('result', got, [{ _id: null, lastAt: at(3) }]);
  });
  await probe("aggregate $group {_id:null, count:{$sum:1}, totalCost:{$sum:'$cost'}, lastAt:{$max:'$createdAt'}} (the adapter's usage query)", async () => {
    const got = await agg([
      { $match: { userId: 'u' } },
      { $group: { _id: null, count: { $sum: 1 }, totalCost: { $sum: '$cost' }, lastAt: { $max: '$createdAt' } } },
    ]);
    expectSame('result', got, [{ _id: null, count: 5, totalCost: 15, lastAt: at(3) }]);
  });
  await probe('aggregate $group on an empty match', async () => {
    const got = await agg([{ $match: { userId: 'nobody' } }, { $group: { _id: null, count: { $sum: 1 }, totalCost: { $sum: '$cost' } } }]);
    expectSame('result', got, []);
  });
  await probe('aggregate $group by field, then $sort', async () => {
    const got = await agg([{ $group: { _id: '$userId', n: { $sum: 1 } } }, { $sort: { _id: 1 } }]);
    expectSame('result', got, [
      { _id: 'u', n: 5 },
      { _id: 'v', n: 1 },
    ]);
  });
  await probe('aggregate $sort {createdAt:-1, _id:-1}, $skip, $limit', async () => {
    const got = await agg([{ $sort: { createdAt: -1, _id: -1 } }, { $skip: 1 }, { $limit: 2 }]);
    expectSame('_ids', got.map((d) => d['_id']), ['r5', 'r4']);
  });
  await probe("aggregate $project (inclusion + field path {c: '$cost'})", async () => {
    const got = await agg([{ $match: { _id: 'r2' } }, { $project: { cost: 1, c: '$cost' } }]);
    expectSame('result', got, [{ _id: 'r2', cost: 2, c: 2 }]);
  });
  await probe("aggregate $project (inclusion + computed field {double: {$multiply: ['$cost', 2]}})", async () => {
    const got = await agg([{ $match: { _id: 'r2' } }, { $project: { cost: 1, double: { $multiply: ['$cost', 2] } } }]);
    expectSame('result', got, [{ _id: 'r2', cost: 2, double: 4 }]);
  });
  await probe('aggregate $project exclusion {createdAt:0}', async () => {
    const got = await agg([{ $match: { _id: 'r2' } }, { $project: { createdAt: 0 } }]);
    expectSame('result', got, [{ _id: 'r2', userId: 'u', cost: 2 }]);
  });
  await probe('aggregate $addFields', async () => {
    const got = await agg([{ $match: { _id: 'r2' } }, { $addFields: { x: 1 } }, { $project: { _id: 1, x: 1 } }]);
    expectSame('result', got, [{ _id: 'r2', x: 1 }]);
  });
  await probe("aggregate $set (alias of $addFields) {x: '$cost'}", async () => {
    const got = await agg([{ $match: { _id: 'r2' } }, { $set: { x: '$cost' } }, { $project: { _id: 1, x: 1 } }]);
    expectSame('result', got, [{ _id: 'r2', x: 2 }]);
  });
  await probe('aggregate $count', async () => {
    expectSame('result', await agg([{ $match: { userId: 'u' } }, { $count: 'n' }]), [{ n: 5 }]);
  });
  await probe('aggregate $facet {total:[{$count}], hits:[{$sort},{$skip},{$limit}]}', async () => {
    const got = await agg([
      { $match: { userId: 'u' } },
      { $facet: { total: [{ $count: 'n' }], hits: [{ $sort: { cost: -1, _id: 1 } }, { $skip: 1 }, { $limit: 2 }, { $project: { _id: 1 } }] } },
    ]);
    expectSame('result', got, [{ total: [{ n: 5 }], hits: [{ _id: 'r4' }, { _id: 'r3' }] }]);
  });
  await probe('aggregate with allowDiskUse:true', async () => {
    expectSame('result', await agg([{ $count: 'n' }], { allowDiskUse: true }), [{ n: 6 }]);
  });

  const s = db.collection<Loose>('schools'); // filled by reads()
  const sagg = (pipeline: Document[]) => s.aggregate(pipeline).toArray();
  await probe("aggregate $match {$text: {$search}} + $project {score: {$meta:'textScore'}} (on a collection whose text index could be created)", async () => {
    const t = db.collection<Loose>('texts');
    await t.insertMany([
      { _id: 't1', texts: [{ grams: ['ab', 'cd'] }] },
      { _id: 't2', texts: [{ grams: ['xy'] }] },
    ]);
    let indexError = '';
    try {
      await t.createIndex({ 'texts.grams': 'text' }, { name: 'text', default_language: 'none' });
    } catch (error) {
      indexError = ` (the text index itself: ${describeError(error)})`;
    }
    try {
      const got = await t.aggregate([{ $match: { $text: { $search: 'ab' } } }, { $project: { score: { $meta: 'textScore' } } }]).toArray();
      expectSame('_ids', got.map((d) => d['_id']), ['t1']);
      if (typeof got[0]?.['score'] !== 'number') throw new Mismatch(`score is ${show(got[0]?.['score'])}, not a number`);
    } catch (error) {
      if (indexError && error instanceof Error) error.message += indexError;
      throw error;
    }
  });
  await probe("find {$text: {$search: 'ab'}}", async () => {
    await db.collection<Loose>('texts').find({ $text: { $search: 'ab' } }).toArray();
  });

  await probe("expression $min on an array ({$min: '$nums'})", async () => {
    const c = db.collection<Loose>('nums');
    await c.insertOne({ _id: 'a', nums: [3, 1, 2] });
    const got = await c.aggregate([{ $project: { _id: 0, lo: { $min: '$nums' } } }]).toArray();
    expectSame('result', got, [{ lo: 1 }]);
  });
  await probe("expression $max on an array ({$max: '$nums'})", async () => {
    const got = await db.collection<Loose>('nums').aggregate([{ $project: { _id: 0, hi: { $max: '$nums' } } }]).toArray();
    expectSame('result', got, [{ hi: 3 }]);
  });
  await probe("expression $max with two arguments ({$max: ['$x', 3]})", async () => {
    const got = await sagg([{ $match: { _id: 's1' } }, { $project: { _id: 0, m: { $max: [{ $arrayElemAt: ['$texts.length', 0] }, 3] } } }]);
    expectSame('result', got, [{ m: 5 }]);
  });
  await probe('expression $map', async () => {
    const got = await sagg([{ $match: { _id: 's2' } }, { $project: { _id: 0, ls: { $map: { input: '$texts', as: 't', in: '$$t.length' } } } }]);
    expectSame('result', got, [{ ls: [2, 2] }]);
  });
  await probe('expression $filter', async () => {
    const got = await sagg([
      { $match: { _id: 's2' } },
      { $project: { _id: 0, f: { $filter: { input: '$texts', as: 't', cond: { $in: ['cd', '$$t.grams'] } } } } },
    ]);
    expectSame('result', got, [{ f: [{ grams: ['c', 'cd'], length: 2 }] }]);
  });
  await probe('expression $setIsSubset', async () => {
    const got = await sagg([{ $match: { _id: 's1' } }, { $project: { _id: 0, yes: { $setIsSubset: [['ab'], ['a', 'ab']] }, no: { $setIsSubset: [['zz'], ['a']] } } }]);
    expectSame('result', got, [{ yes: true, no: false }]);
  });
  await probe('expression $literal', async () => {
    const got = await sagg([{ $match: { _id: 's3' } }, { $project: { _id: 0, l: { $literal: ['$x'] } } }]);
    expectSame('result', got, [{ l: ['$x'] }]);
  });
  await probe('expression $ifNull', async () => {
    const got = await sagg([{ $match: { _id: 's3' } }, { $project: { _id: 0, n: { $ifNull: ['$missing', 9] } } }]);
    expectSame('result', got, [{ n: 9 }]);
  });
  await probe('expression $arrayElemAt', async () => {
    const got = await sagg([{ $match: { _id: 's3' } }, { $project: { _id: 0, e: { $arrayElemAt: ['$texts.length', 0] } } }]);
    expectSame('result', got, [{ e: 2 }]);
  });
  await probe("expression $sum on an array ({$sum: '$texts.length'})", async () => {
    const got = await sagg([{ $match: { _id: 's2' } }, { $project: { _id: 0, t: { $sum: '$texts.length' } } }]);
    expectSame('result', got, [{ t: 4 }]);
  });
  await probe("the adapter's ranking pipeline shape ($project{$min:{$map:{$filter:{$setIsSubset}}}} → $set{$max} → $facet)", async () => {
    const terms = { $literal: ['ab', 'cd'] };
    const got = await sagg([
      { $match: { texts: { $elemMatch: { grams: { $all: ['ab'] } } } } },
      {
        $project: {
          name: 1,
          matchedLength: {
            $min: {
              $map: { input: { $filter: { input: '$texts', as: 't', cond: { $setIsSubset: [terms, '$$t.grams'] } } }, as: 't', in: '$$t.length' },
            },
          },
        },
      },
      { $set: { rank: { $max: ['$matchedLength', 4] } } },
      { $facet: { total: [{ $count: 'n' }], hits: [{ $sort: { rank: 1, name: 1, _id: 1 } }, { $skip: 0 }, { $limit: 10 }] } },
    ]);
    // s1 holds both terms in one text (length 5); s2 in none ($min of [] is null; $max(null, 4) is 4).
    expectSame('result', got, [
      {
        total: [{ n: 2 }],
        hits: [
          { _id: 's2', name: 'ab / cd', matchedLength: null, rank: 4 },
          { _id: 's1', name: 'ab cd', matchedLength: 5, rank: 5 },
        ],
      },
    ]);
  });
}

async function admin(client: MongoClient, db: Db): Promise<void> {
  await probe('createCollection', async () => {
    await db.createCollection('made');
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    if (!names.includes('made')) throw new Mismatch(`listCollections does not show it (${show(names)})`);
    const e = await expectServerError('createCollection of an existing collection', 48, () => db.createCollection('made'));
    return `a second createCollection fails: ${describeError(e)}`;
  });
  await probe('listCollections', async () => {
    const got = await db.listCollections({ name: 'made' }).toArray();
    expectSame('names', got.map((c) => c.name), ['made']);
    return `entry: ${show(got[0])}`;
  });
  await probe('listIndexes', async () => {
    await db.collection<Loose>('made').createIndex({ a: 1, b: -1 }, { name: 'a_b', unique: true });
    const got = await db.collection<Loose>('made').listIndexes().toArray();
    return show(got);
  });
  await probe('renameCollection', async () => {
    await db.collection<Loose>('from').insertOne({ _id: 'x' });
    await db.renameCollection('from', 'to');
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expectSame('from/to exist', [names.includes('from'), names.includes('to')], [false, true]);
    expectSame('document moved', await db.collection<Loose>('to').findOne({}), { _id: 'x' });
  });
  await probe('renameCollection dropTarget:true onto an existing collection', async () => {
    await db.collection<Loose>('from2').insertOne({ _id: 'new' });
    await db.collection<Loose>('to2').insertOne({ _id: 'old' });
    await db.renameCollection('from2', 'to2', { dropTarget: true });
    expectSame('documents', await db.collection<Loose>('to2').find().toArray(), [{ _id: 'new' }]);
  });
  await probe('dropDatabase', async () => {
    const other = client.db('probe_drop');
    await other.collection<Loose>('c').insertOne({ a: 1 });
    expectSame('result', await other.dropDatabase(), true);
    const dbs = (await client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
    if (dbs.includes('probe_drop')) throw new Mismatch(`listDatabases still shows it (${show(dbs)})`);
  });

  await probe('listSearchIndexes (Atlas Search)', async () => {
    await db.collection<Loose>('made').listSearchIndexes().toArray();
  });
  await probe('createSearchIndex (Atlas Search)', async () => {
    await db.collection<Loose>('made').createSearchIndex({ name: 's', definition: { mappings: { dynamic: true } } });
  });
}

async function transactions(client: MongoClient, db: Db, label: string): Promise<void> {
  const c = db.collection<Loose>(`tx_${label.replace(/\W+/g, '_')}`);
  await c.insertOne({ _id: 'seed' });
  await probe(`transactions ${label}: session.withTransaction, committed`, async () => {
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await c.insertOne({ _id: 'in-tx' }, { session });
      });
    } finally {
      await session.endSession();
    }
    expectSame('committed document', await c.findOne({ _id: 'in-tx' }), { _id: 'in-tx' });
  });
  await probe(`transactions ${label}: session.withTransaction, aborted (callback throws) → its write undone`, async () => {
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await c.insertOne({ _id: 'aborted' }, { session });
        throw new Error('abort on purpose');
      });
    } catch (error) {
      if (!(error instanceof Error && error.message === 'abort on purpose')) throw error;
    } finally {
      await session.endSession();
    }
    const left = await c.findOne({ _id: 'aborted' });
    if (left !== null) throw new Mismatch('the write made inside the aborted transaction is still there (no atomicity)');
  });
}

async function types(db: Db): Promise<void> {
  const c = db.collection<Loose>('types');
  await probe('Dates round-trip as Date (ms precision, before 1970, far future)', async () => {
    const dates = [new Date('2026-05-04T03:02:01.987Z'), new Date('1969-07-20T20:17:40.123Z'), new Date('2999-12-31T23:59:59.999Z')];
    await c.insertOne({ _id: 'dates', dates, one: dates[0] });
    const doc = await c.findOne({ _id: 'dates' });
    const back = doc?.['dates'] as unknown[];
    if (!back.every((d) => d instanceof Date) || !(doc?.['one'] instanceof Date)) throw new Mismatch(`read back as ${show(doc)}`);
    expectSame('times', back.map((d) => (d as Date).getTime()), dates.map((d) => d.getTime()));
    expectSame('range query on a Date', (await c.find({ one: { $gte: dates[0], $lt: new Date(dates[0]!.getTime() + 1) } }).toArray()).length, 1);
  });
  await probe('null fields stored and read back as null (not dropped)', async () => {
    await c.insertOne({ _id: 'nulls', revokedAt: null, nested: { a: null } });
    const doc = await c.findOne({ _id: 'nulls' });
    expectSame('document', doc, { _id: 'nulls', revokedAt: null, nested: { a: null } });
    if (!doc || !('revokedAt' in doc)) throw new Mismatch('revokedAt is missing');
  });
  await probe("string _id (insertOne, findOne({_id:'…'}), duplicate → 11000)", async () => {
    await c.insertOne({ _id: 'user-123e4567', x: 1 });
    expectSame('document', await c.findOne({ _id: 'user-123e4567' }), { _id: 'user-123e4567', x: 1 });
    await expectServerError('a duplicate string _id', 11000, () => c.insertOne({ _id: 'user-123e4567' }));
  });
  await probe('insertOne without _id gets an ObjectId', async () => {
    const r = await c.insertOne({ y: 1 });
    if (!(r.insertedId instanceof ObjectId)) throw new Mismatch(`insertedId is ${show(r.insertedId)}`);
    const doc = await c.findOne({ _id: r.insertedId });
    if (!(doc?._id instanceof ObjectId)) throw new Mismatch(`read back _id is ${show(doc?._id)}`);
  });
}

async function checkTtl(checks: TtlCheck[]): Promise<void> {
  if (checks.length === 0) return;
  // MongoDB's TTL monitor runs every 60 s: wait up to 70 s after the insert.
  for (const check of checks) {
    const deadline = check.insertedAt + 70_000;
    let deleted = false;
    while (Date.now() < deadline) {
      if ((await check.db.collection<Loose>(check.collection).countDocuments({})) === 0) {
        deleted = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    if (deleted) out(`${check.feature}: supported (deleted within ${Math.round((Date.now() - check.insertedAt) / 1000)} s)`);
    else out(`${check.feature}: NOT supported: accepted without error, but a document a day past its deadAt is still there after 70 s (MongoDB deletes it within about 60 s)`);
  }
}

async function main(): Promise<number> {
  const binary = ferretDbBinary();
  if (binary === undefined) {
    console.error(`skipped: ${FERRETDB_MISSING}`);
    return 1;
  }
  const { version: driverVersion } = (await import('mongodb/package.json', { with: { type: 'json' } })).default as { version: string };
  out(`# FerretDB probe, ${new Date().toISOString()}`);
  out(`# binary: ${binary}`);
  out(`# driver: mongodb ${driverVersion}; node ${process.version}`);

  let server: FerretDb | undefined;
  let client: MongoClient | undefined;
  try {
    server = await startFerretDb();
    out(`# server: ${server.uri} (--handler=sqlite, standalone)`);
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    await client.connect();
    const db = client.db('probe');

    out('## server');
    await serverInfo(client);
    out('## indexes');
    const ttlChecks = await indexes(db);
    out('## writes');
    await writes(db);
    out('## reads');
    await reads(db);
    out('## aggregate');
    await aggregation(db);
    out('## collections and databases');
    await admin(client, db);
    out('## transactions');
    await transactions(client, db, '(standalone)');
    out('## types');
    await types(db);
    if (ttlChecks.length > 0) {
      out('## TTL (waiting up to 70 s for expired documents to go)');
      await checkTtl(ttlChecks);
    }
  } finally {
    await client?.close();
    await server?.stop();
  }

  // The same server started with --repl-set-name: what a client that needs a replica set sees.
  let rsServer: FerretDb | undefined;
  let rsClient: MongoClient | undefined;
  try {
    out('## replica-set mode (ferretdb --repl-set-name=rs0)');
    rsServer = await startFerretDb({ replSetName: 'rs0' });
    const uri = `${rsServer.uri}?replicaSet=rs0`;
    await probe(`connect with ${uri.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:PORT')}`, async () => {
      rsClient = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
      await rsClient.connect();
      const hello = await rsClient.db('admin').command({ hello: 1 });
      return `hello: setName ${show(hello['setName'])}, hosts ${show(hello['hosts'])}, isWritablePrimary ${show(hello['isWritablePrimary'])}`;
    });
    if (rsClient) {
      const client = rsClient;
      await probe("insertOne writeConcern {w:'majority', j:true} (replica-set mode)", async () => {
        await client.db('probe').collection<Loose>('w').insertOne({ a: 1 }, { writeConcern: { w: 'majority', j: true } });
      });
      await transactions(client, client.db('probe'), '(replica-set mode)');
    }
  } finally {
    await rsClient?.close();
    await rsServer?.stop();
  }
  return 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  out(`probe failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  if (lines.length > 0) {
    writeFileSync(OUTPUT_FILE, `${lines.join('\n')}\n`);
    console.log(`(written to ${OUTPUT_FILE})`);
  }
}
process.exitCode = exitCode;
