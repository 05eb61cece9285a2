// A MongoDB store set up wrong for its search mode, under the real app: the text index missing
// (MONGODB_SEARCH=text, indexes left to `school-search indexes`), Atlas Search absent or its index
// missing or building (MONGODB_SEARCH=atlas), schools whose search fields are of an older
// SEARCH_FIELDS_VERSION. Each is a 503 problem+json from readiness and from a search (not a 500,
// an empty page or wrong results), and one log line per request naming the problem and its fix
// (no stack trace). Then a re-import of the outdated schools derives their search fields again,
// counts them as updated, and the search finds them.
//
// On FerretDB v1 (and MongoDB at MONGODB_URI). FerretDB has no text index, no $text and no Atlas
// Search: where a case needs the server to list an index it cannot hold, the listing is stood in
// for (as MongoDB or Atlas would answer), and $text is run by mingo over the documents on the
// server (scripts/quality/mingo-search.ts). Readiness's checks and the documents are the server's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Collection, Document } from 'mongodb';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient } from '../../generated/client/index.ts';
import { fetchSchoolSearch, getReadiness } from '../../generated/sdk.gen.ts';
import { createApp } from '../../src/http/app.ts';
import type { SearchEngine } from '../../src/domain/search/engine.port.ts';
import { loadContract } from '../../src/http/contract.ts';
import { RATE_LIMITS_OFF } from '../../src/http/middleware/rate-limit.ts';
import { listen } from '../../src/http/server.ts';
import { dryRunImport, importFile } from '../../src/import/import.service.ts';
import { unmanaged } from '../../src/search/managed.engine.ts';
import { createServices } from '../../src/composition/services.ts';
import { pipelineEngine } from '../../src/composition/engine.ts';
import { COLLECTIONS } from '../../src/stores/mongodb/documents.ts';
import { SEARCH_FIELDS_VERSION, type SearchedSchool } from '../../src/search/mongodb/search-fields.ts';
import { SEARCH_EXTENSION, TEXT_INDEX } from '../../src/search/mongodb/catalog-extension.ts';
import {
  SEARCH_FIELDS_OUTDATED,
  searchReady,
  TEXT_INDEX_MISSING,
  type PipelineMode,
} from '../../src/search/mongodb/setup.ts';
import { MongoStore } from '../../src/stores/mongodb/store.ts';
import { MongoAtlasEngine } from '../../src/search/mongodb/atlas.engine.ts';
import { MongoTextEngine } from '../../src/search/mongodb/text.engine.ts';
import { cheapHasher } from '../support/app.ts';
import { atlasSearchStandIn } from '../support/atlas-search.ts';
import { FERRETDB_MISSING } from '../../scripts/ferretdb/server.ts';
import { mingoSource } from '../../scripts/quality/mingo-search.ts';
import {
  dropAndClose,
  freshDatabaseName,
  type MongoServer,
  mongoServers,
  openFreshMongoStore,
  type SearchedMongoStore,
} from '../support/mongodb.ts';
import { expectProblem } from '../support/problem.ts';

const servers = await mongoServers();
const none = servers.length === 0;
if (none) console.warn(`MongoDB setup problems — skipped: ${FERRETDB_MISSING}, and MONGODB_URI is not set`);

const ATLAS: PipelineMode = { kind: 'atlas', index: 'schools_search' };
const CSV = [
  'schoolid,schoolname,city,stateprovince',
  'e0000000-0000-4000-8000-000000000001,Oldfield Academy,Springfield,IL',
  'e0000000-0000-4000-8000-000000000002,Oldfield College,Springfield,MA',
  '',
].join('\n');

interface LogLine {
  level: number;
  msg: string;
  cause?: string;
  err?: unknown;
}

/** The real app (createApp) over this store and engine, as src/composition/server.ts composes it, its log lines kept. */
async function startApp(store: SearchedMongoStore, engine: SearchEngine) {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const services = createServices({ store, hasher: cheapHasher, tokenTtlSeconds: 3600, engine: unmanaged(engine) });
  const app = createApp({
    ...services,
    contract: loadContract(),
    publicBaseUrl: 'http://images.test',
    validateResponses: true,
    logger,
    rateLimits: RATE_LIMITS_OFF,
    corsOrigins: '*',
  });
  const server: Server = await listen(app, 0, '127.0.0.1', logger);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await services.auth.createUser('setup@example.com', 'correct-horse-battery');
  const token = (await services.auth.login('setup@example.com', 'correct-horse-battery')).value;
  return {
    anonymous: createClient({ baseUrl }),
    user: createClient({ baseUrl, headers: { Authorization: `Bearer ${token}` } }),
    /** The request's answer and every line the app logged for it (the access line comes on 'finish': waited for). */
    async logging<T>(request: () => Promise<T>): Promise<{ answer: T; lines: LogLine[] }> {
      lines.length = 0;
      const answer = await request();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { answer, lines: lines.map((l) => JSON.parse(l) as LogLine) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type App = Awaited<ReturnType<typeof startApp>>;

/** Readiness and a search both answer 503, and each request logs one line naming `problem` (with its fix), no error, no stack. */
async function expectSetupProblem(app: App, problem: string | RegExp): Promise<void> {
  const requests: Array<() => Promise<{ response?: Response; error?: unknown }>> = [
    () => getReadiness({ client: app.anonymous }),
    () => fetchSchoolSearch({ client: app.user, query: { query: 'oldfield' } }),
  ];
  for (const request of requests) {
    const { answer, lines } = await app.logging(request);
    const body = expectProblem(answer, 503, 'service-unavailable');
    expect(answer.response!.headers.get('retry-after')).toBe('5');
    // Nothing of the cause reaches the client: it is the operator's to read.
    expect(JSON.stringify(body)).not.toMatch(/school-search indexes|MONGODB_SEARCH|index/);
    const naming = lines.filter((l) => Object.values(l).some((v) => typeof v === 'string' && names(v, problem)));
    expect(naming, JSON.stringify(lines)).toHaveLength(1);
    expect(naming[0]).toMatchObject({ level: 40, msg: 'store unavailable' });
    expect(names(naming[0]!.cause ?? '', problem), naming[0]!.cause).toBe(true);
    expect(
      lines.filter((l) => l.level >= 50 || l.err !== undefined || JSON.stringify(l).includes('stack')),
      JSON.stringify(lines),
    ).toEqual([]);
  }
}

function names(text: string, problem: string | RegExp): boolean {
  return typeof problem === 'string' ? text.includes(problem) : problem.test(text);
}

/** The schools collection as a server holding these indexes would list them: what FerretDB cannot hold. */
function listing(
  schools: Collection<SearchedSchool>,
  answer: { indexes?: string[]; searchIndexes?: Document[] },
): Collection<SearchedSchool> {
  const standIn = Object.create(schools) as Record<string, unknown>;
  if (answer.indexes) {
    const names = answer.indexes;
    standIn['listIndexes'] = () => ({ toArray: async () => [...names.map((name) => ({ name }))] });
  }
  if (answer.searchIndexes) {
    // Read when listed: a test may change what the server holds.
    standIn['listSearchIndexes'] = (name: string) => ({
      toArray: async () => answer.searchIndexes!.filter((i) => i['name'] === name),
    });
  }
  return standIn as unknown as Collection<SearchedSchool>;
}

describe.skipIf(none).each(none ? [['no server', '', 'ferretdb'] as MongoServer] : servers)(
  'MongoDB setup problems on %s',
  (_name, serverUri, flavor) => {
    const stores: SearchedMongoStore[] = [];
    const apps: App[] = [];
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'school-search-setup-'));
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const store of stores) await dropAndClose(store);
      rmSync(dir, { recursive: true, force: true });
    });

    async function opened(store: Promise<SearchedMongoStore>): Promise<SearchedMongoStore> {
      stores.push(await store);
      return stores.at(-1)!;
    }
    async function started(store: SearchedMongoStore, engine: SearchEngine): Promise<App> {
      apps.push(await startApp(store, engine));
      return apps.at(-1)!;
    }

    test('when MONGODB_SEARCH=text and the indexes were left to `school-search indexes`, then readiness and searches answer 503, each logging one line that names the text index and the command', async () => {
      const store = await opened(
        MongoStore.open({
          uri: serverUri,
          database: freshDatabaseName(),
          extension: SEARCH_EXTENSION,
          indexes: 'none',
        }),
      );
      // The engine as the composition root builds it (src/composition/engine.ts: pipelineEngine).
      const app = await started(
        store,
        (await pipelineEngine(store, { kind: 'mongodb', uri: serverUri, search: { kind: 'text' } }))!,
      );
      await expectSetupProblem(app, TEXT_INDEX_MISSING);
    });

    test('when MONGODB_SEARCH=atlas on a server without Atlas Search, then readiness and searches answer 503, each logging one line that says so and what to do', async () => {
      // Opened without the start-up check of src/composition/store.ts (which refuses to start:
      // test/search/atlas-search-index.test.ts), as when Atlas Search goes away later.
      const store = await opened(
        MongoStore.open({
          uri: serverUri,
          database: freshDatabaseName(),
          extension: SEARCH_EXTENSION,
          indexes: 'none',
        }),
      );
      const app = await started(
        store,
        (await pipelineEngine(store, { kind: 'mongodb', uri: serverUri, search: ATLAS }))!,
      );
      await expectSetupProblem(
        app,
        /MONGODB_SEARCH=atlas needs Atlas Search.*: use MongoDB Atlas, or set MONGODB_SEARCH=memory/,
      );
    });

    test('when the Atlas Search index is missing, then building, then ready, then readiness and searches answer 503 naming the command, then the wait, then readiness 200', async () => {
      const store = await opened(openFreshMongoStore(serverUri, flavor));
      let searchIndexes: Document[] = [];
      const schools = () => listing(store.db.collection<SearchedSchool>(COLLECTIONS.schools), { searchIndexes });
      // Readiness asked afresh on every search (readyTtlMs 0): the listing changes between requests.
      const engine = new MongoAtlasEngine(
        {
          aggregate: (p) => store.catalog.aggregate(p),
          catalogVersion: () => store.catalog.catalogVersion(),
          ready: () => searchReady(schools(), ATLAS),
        },
        ATLAS.index,
        { readyTtlMs: 0 },
      );
      const app = await started(store, engine);
      await expectSetupProblem(
        app,
        'the Atlas Search index "schools_search" does not exist: create it with `npx school-search indexes`',
      );
      searchIndexes = [{ name: ATLAS.index, queryable: false, status: 'BUILDING' }];
      await expectSetupProblem(
        app,
        'the Atlas Search index "schools_search" is not queryable yet (status BUILDING): wait until Atlas has built it',
      );
      searchIndexes = [{ name: ATLAS.index, queryable: true, status: 'READY' }];
      expect((await getReadiness({ client: app.anonymous })).data).toEqual({ status: 'ok', store: 'mongodb' });
    });

    test('when the Atlas Search index is deleted while the API runs, then a search that still trusts the last readiness check answers 503 naming the command, not an empty page', async () => {
      const store = await opened(openFreshMongoStore(serverUri, flavor));
      const file = join(dir, `atlas-${flavor}.csv`);
      writeFileSync(file, CSV);
      await importFile(store, file);
      const collection = store.db.collection<SearchedSchool>(COLLECTIONS.schools);
      let searchIndexes: Document[] = [{ name: ATLAS.index, queryable: true, status: 'READY' }];
      const schools = listing(collection, {
        get searchIndexes() {
          return searchIndexes;
        },
      });
      // Atlas Search over the documents on the server; the listing and the version are the server's.
      const atlas = await atlasSearchStandIn(await collection.find({}).toArray());
      const engine = new MongoAtlasEngine(
        {
          aggregate: (p) => atlas.aggregate(p),
          catalogVersion: () => store.schools.catalogVersion(),
          ready: () => searchReady(schools, ATLAS),
        },
        ATLAS.index,
        // The readiness check of the first search still trusted by the second (the default trusts it 1 s).
        { readyTtlMs: 60_000 },
      );
      const app = await started(store, engine);
      const found = await fetchSchoolSearch({ client: app.user, query: { query: 'oldfield' } });
      expect(found.data?.requestresult.total_count).toBe(2);
      // Deleted: Atlas lists no index and answers $search with nothing, not an error.
      searchIndexes = [];
      atlas.setIndexExists(false);
      await expectSetupProblem(
        app,
        'the Atlas Search index "schools_search" does not exist: create it with `npx school-search indexes`',
      );
    });

    test('when schools hold search fields of an older version, then readiness and searches answer 503 naming the command; a re-import of the same file derives them again, counts them updated, and the search finds them', async () => {
      const store = await opened(openFreshMongoStore(serverUri, flavor));
      const file = join(dir, `schools-${flavor}.csv`);
      writeFileSync(file, CSV);
      expect((await importFile(store, file)).counts).toStrictEqual({ inserted: 2, updated: 0, unchanged: 0 });
      // As an earlier version of the normalisation left them: other search terms, an older version.
      const collection = store.db.collection<SearchedSchool>(COLLECTIONS.schools);
      const derived = await collection.find({}, { sort: { _id: 1 } }).toArray();
      await collection.updateMany({}, { $set: { tokens: ['0stale'], searchVersion: SEARCH_FIELDS_VERSION - 1 } });
      // The $text engine, its text index listed as MongoDB would after `school-search indexes` (the
      // outdated fields are the only problem left), $text run by mingo over the server's documents.
      const indexed = listing(collection, { indexes: ['_id_', TEXT_INDEX] });
      const engine = new MongoTextEngine(
        { ...mingoSource(store), ready: () => searchReady(indexed, { kind: 'text' }) },
        { readyTtlMs: 0, versionTtlMs: 0 },
      );
      const app = await started(store, engine);
      await expectSetupProblem(app, SEARCH_FIELDS_OUTDATED);

      // Unchanged schools, outdated search fields: updated, as the dry run foretells, not unchanged.
      expect((await dryRunImport(store.schools, file)).counts).toStrictEqual({ inserted: 0, updated: 2, unchanged: 0 });
      expect((await importFile(store, file)).counts).toStrictEqual({ inserted: 0, updated: 2, unchanged: 0 });
      const again = await collection.find({}, { sort: { _id: 1 } }).toArray();
      expect(again.map((d) => [d.searchVersion, d.tokens, d.search])).toStrictEqual(
        derived.map((d) => [SEARCH_FIELDS_VERSION, d.tokens, d.search]),
      );

      expect((await getReadiness({ client: app.anonymous })).data).toEqual({ status: 'ok', store: 'mongodb' });
      const found = await fetchSchoolSearch({ client: app.user, query: { query: 'oldfield academy' } });
      expect(found.response!.status).toBe(200);
      expect(found.data!.requestresult.schools.map((s) => s.schoolname)).toStrictEqual(['Oldfield Academy']);
      // And once more: now they are unchanged.
      expect((await importFile(store, file)).counts).toStrictEqual({ inserted: 0, updated: 0, unchanged: 2 });
    });
  },
);
