// The command line on MongoDB (MONGODB_URI), as a child process: the same import command writes
// the IPEDS file in unordered bulk batches, and a second run changes nothing; `indexes` creates
// the indexes. Runs where the test run has a MongoDB (the GitHub workflow, docker compose); on
// FerretDB, which refuses the text index, the commands must refuse to run and say why.
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sharedData } from '../support/shared-data.ts';
import { withDatabase } from '../../src/stores/mongodb/store.ts';
import { flavorOf, freshDatabaseName, mongoUriFromEnv } from '../support/mongodb.ts';
import { REPO, runCli } from '../support/cli.ts';

const IPEDS = sharedData('ipeds-hd2022.csv');
const IPEDS_FILE = IPEDS.path;

const uri = mongoUriFromEnv();
const realMongo = uri && (await flavorOf(uri)) === 'mongodb' ? uri : undefined;
const ferretdb = inject('ferretdbUri');
const databases: Array<[string, string]> = [];

/** A URI naming a fresh database on this server (dropped after the file). */
function fresh(server: string): string {
  const database = freshDatabaseName();
  databases.push([server, database]);
  return withDatabase(server, database);
}

afterAll(async () => {
  for (const [server, database] of databases) {
    const client = new MongoClient(server);
    await client.db(database).dropDatabase();
    await client.close();
  }
});

describe('school-search on MongoDB (MONGODB_URI)', () => {
  it('indexes creates every index; import writes the IPEDS file, and the second run changes nothing', async (ctx) => {
    ctx.skip(!realMongo, 'no MongoDB server in this run (MONGODB_URI unset or FerretDB)');
    ctx.skip(!IPEDS.present, 'no ../shared/data/ipeds-hd2022.csv beside the repository');
    const env = { MONGODB_URI: fresh(realMongo!) };
    const indexes = await runCli(['indexes'], { env });
    expect(indexes.stdout).toContain('schools.schools_tokens_text');
    expect(indexes.code).toBe(0);

    const first = await runCli(['import', IPEDS_FILE], { env });
    expect(first.stdout).toMatch(/^ {2}inserted +6112$/m);
    expect(first.code).toBe(0);
    const second = await runCli(['import', IPEDS_FILE], { env });
    expect(second.stdout).toMatch(/^ {2}inserted +0$/m);
    expect(second.stdout).toMatch(/^ {2}unchanged +6112$/m);
    expect(second.code).toBe(0);
  }, 120_000);

  it('when the server refuses the text index (FerretDB), then import exits 1 naming it in one line and writes nothing', async (ctx) => {
    ctx.skip(!ferretdb, 'FerretDB is not installed (npm run ferretdb:setup)');
    const env = { MONGODB_URI: fresh(ferretdb) };
    const result = await runCli(['import', join(REPO, 'test/fixtures/schools.ndjson')], { env });
    expect(result.stderr).toMatch(/^school-search: MongoDB refused indexes: schools\.schools_tokens_text \(.+\)\n$/);
    expect(result.code).toBe(1);
    const client = new MongoClient(ferretdb);
    expect(await client.db(databases.at(-1)![1]).collection('schools').countDocuments()).toBe(0);
    await client.close();
  });
});
