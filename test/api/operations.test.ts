// Health, school images, docs, the contract, problem pages, and routes the contract lacks.
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchSchoolSearch, getLiveness, getReadiness, getSchoolImage } from '../../generated/sdk.gen.ts';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import { unmanaged } from '../../src/search/managed.engine.ts';
import { MemorySearchEngine } from '../../src/search/memory/memory.engine.ts';
import { MongoSetupError } from '../../src/mongodb-shared/errors.ts';
import { createHandlers } from '../../src/http/operations/handlers.ts';
import { loadContract } from '../../src/http/contract.ts';
import { PROBLEMS } from '../../src/http/problems/problems.ts';
import { STATE_CODES } from '../../src/domain/catalog/states.ts';
import { EMAIL_PATTERN } from '../../src/domain/accounts/credentials.ts';
import { keyNameProblem } from '../../src/domain/accounts/keys.service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

let app: TestApp;
let schoolId: string;
beforeAll(async () => {
  app = await startTestApp();
  schoolId = (await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]))[0]!.id;
});
afterAll(() => app.close());

async function raw(path: string, init: RequestInit = {}) {
  return fetch(`${app.baseUrl}${path}`, init);
}

describe('getLiveness (GET /health/live)', () => {
  test('when the process is up, then 200 ok', async () => {
    const r = await getLiveness({ client: app.client() });
    expect(r.response!.status).toBe(200);
    expect(r.data).toEqual({ status: 'ok' });
  });

  test('when an unknown parameter is sent, then 400', async () => {
    const r = await getLiveness({ client: app.client(), query: { verbose: 1 } as never, ...unchecked });
    expectProblem(r, 400, 'validation-error');
  });
});

describe('getReadiness (GET /health/ready)', () => {
  test('when the store answers, then 200 with the store kind', async () => {
    const r = await getReadiness({ client: app.client() });
    expect(r.data).toEqual({ status: 'ok', store: app.services.store.kind });
  });

  test('when the store does not answer, then 503 with Retry-After', async () => {
    const store = app.services.store;
    const original = store.ping.bind(store);
    store.ping = async () => {
      throw new StoreUnavailableError();
    };
    try {
      const r = await getReadiness({ client: app.client() });
      expectProblem(r, 503, 'service-unavailable');
      expect(r.response!.headers.get('retry-after')).toBe('5');
    } finally {
      store.ping = original;
    }
  });

  test('when the search engine cannot answer (its index missing or building), then 503 with Retry-After, and the log line says why', async () => {
    const lines: string[] = [];
    const missing = new MongoSetupError(
      'the text index schools_tokens_text is missing: create it with `npx school-search indexes`',
    );
    let ready = false;
    const engine = unmanaged({
      search: async () => ({ total: 0, hits: [] }),
      ready: async () => {
        if (!ready) throw new StoreUnavailableError('The search index is unavailable.', { cause: missing });
      },
    });
    const other = await startTestApp({ engine, logLines: lines });
    try {
      const r = await getReadiness({ client: other.client() });
      expectProblem(r, 503, 'service-unavailable');
      expect(r.response!.headers.get('retry-after')).toBe('5');
      const logged = lines
        .map((l) => JSON.parse(l) as { msg: string; cause?: string })
        .find((l) => l.msg === 'store unavailable');
      expect(logged?.cause).toContain('npx school-search indexes');
      ready = true;
      expect((await getReadiness({ client: other.client() })).response!.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  test('when the server has just started and its index is still being built, then it accepts connections: readiness is 503 saying why and searches 503 with Retry-After, then 200 once built', async () => {
    // The store's catalog read waits for this test: the index is built when the test says.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let starting: Promise<void> | undefined;
    const other = await startTestApp({
      engine: (store) => {
        const engine = new MemorySearchEngine(
          {
            catalogVersion: () => store.schools.catalogVersion(),
            async *readCatalog() {
              await gate;
              yield* store.schools.readCatalog();
            },
          },
          { refreshMs: 0 },
        );
        // As src/main.ts starts it: the app serves while the index is built.
        return {
          ...unmanaged(engine),
          search: (q) => engine.search(q),
          ready: () => engine.ready(),
          start: async () => {
            starting = engine.start();
          },
          close: () => engine.close(),
        };
      },
    });
    try {
      await other.services.store.schools.upsertMany([
        {
          id: schoolId,
          name: 'Harvard University',
          city: 'Cambridge',
          state: 'MA',
          imageUrl: null,
          aliases: [],
          prominence: 0,
        },
      ]);
      const r = await getReadiness({ client: other.client() });
      expectProblem(r, 503, 'service-unavailable');
      expect(r.response!.headers.get('retry-after')).toBe('5');
      expect((r.error as { detail: string }).detail).toBe(
        'The search index is being built: 0 schools read. Retry later.',
      );
      const { client } = await other.userClient();
      const search = await fetchSchoolSearch({ client, query: { query: 'harvard' } });
      expectProblem(search, 503, 'service-unavailable');
      expect(search.response!.headers.get('retry-after')).toBe('5');
      release();
      await starting;
      expect((await getReadiness({ client: other.client() })).data).toEqual({
        status: 'ok',
        store: other.services.store.kind,
      });
      const found = await fetchSchoolSearch({ client, query: { query: 'harvard' } });
      expect(found.data!.requestresult.schools.map((s) => s.schoolname)).toEqual(['Harvard University']);
    } finally {
      release();
      await other.close();
    }
  });

  test('when an unknown parameter is sent, then 400', async () => {
    const r = await getReadiness({ client: app.client(), query: { deep: 1 } as never, ...unchecked });
    expectProblem(r, 400, 'validation-error');
  });
});

describe('getSchoolImage (GET /images/schools/{schoolId}.svg)', () => {
  test('when the school exists, then an SVG monogram of its initials, cacheable, without a token', async () => {
    const r = await getSchoolImage({ client: app.client(), path: { schoolId }, parseAs: 'text' });
    expect(r.response!.status).toBe(200);
    expect(r.response!.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(r.response!.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(String(r.data)).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(String(r.data)).toContain('>HU</text>');
  });

  test('when the school does not exist, then 404', async () => {
    const r = await getSchoolImage({
      client: app.client(),
      path: { schoolId: '00000000-0000-4000-8000-000000000000' },
    });
    expectProblem(r, 404, 'not-found');
  });

  test('when the id is not a UUID, then 400', async () => {
    const r = await getSchoolImage({ client: app.client(), path: { schoolId: 'harvard' }, ...unchecked });
    expectProblem(r, 400, 'validation-error');
  });
});

describe('documentation routes', () => {
  test('when /openapi.json is fetched, then it is the contract', async () => {
    const r = await raw('/openapi.json');
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual(JSON.parse(JSON.stringify(loadContract())));
  });

  test('when /docs/ is fetched, then Swagger UI loads the contract, sandboxed, without persisted authorisation', async () => {
    const page = await raw('/docs/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
    // An opaque origin (no allow-same-origin): the dashboard's storage is out of its reach.
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/;sandbox allow-scripts /);
    expect(csp).not.toContain('allow-same-origin');
    expect(csp).toContain("frame-ancestors 'none'");
    const init = await (await raw('/docs/swagger-ui-init.js')).text();
    expect(init).toContain('"url": "/openapi.json"');
    expect(init).toContain('"persistAuthorization": false');
    expect(init).toContain('"tryItOutEnabled": true');
  });

  test('when a problem type URI is followed, then it explains the problem', async () => {
    for (const kind of Object.values(PROBLEMS)) {
      const r = await raw(`/problems/${kind.slug}`);
      expect(r.status).toBe(200);
      expect(await r.text()).toContain(kind.title);
    }
  });
});

describe('routes and methods outside the contract', () => {
  test.each(['/v1/nope', '/nope', '/v1/fetchSchoolSearch/extra', '/problems/nope'])(
    'when %s is requested, then 404 problem+json',
    async (path) => {
      const r = await raw(path);
      expectProblem({ response: r, error: await r.json() }, 404, 'not-found');
    },
  );

  test.each([
    ['PUT', '/v1/fetchMyData', 'GET, HEAD'],
    ['DELETE', '/v1/fetchSchoolSearch', 'GET, HEAD'],
    ['GET', '/v1/auth/rotate', 'POST'],
    ['PATCH', '/v1/auth', 'DELETE, POST'],
  ])('when %s %s is requested, then 405 with Allow', async (method, path, allow) => {
    const r = await raw(path, { method });
    expectProblem({ response: r, error: await r.json() }, 405, 'method-not-allowed');
    expect(r.headers.get('allow')?.split(/,\s*/).sort().join(', ')).toBe(allow);
  });

  test('when any response is sent, then it carries a request id and no X-Powered-By', async () => {
    const r = await raw('/health/live', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(r.headers.get('x-request-id')).toBe('trace-123');
    expect(r.headers.get('x-powered-by')).toBeNull();
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const unsafe = await raw('/health/live', { headers: { 'X-Request-Id': 'bad id\twith spaces' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('contract and domain agree', () => {
  test('when the contract lists state codes, then the importer accepts exactly those', () => {
    const contract = loadContract() as unknown as { components: { schemas: { StateCode: { enum: string[] } } } };
    expect([...STATE_CODES].sort()).toEqual([...contract.components.schemas.StateCode.enum].sort());
  });

  test("when the operator creates an account, then its e-mail rule is the contract's one", () => {
    const contract = loadContract() as unknown as { components: { schemas: { EmailAddress: { pattern: string } } } };
    expect(EMAIL_PATTERN.source).toBe(contract.components.schemas.EmailAddress.pattern);
    expect(EMAIL_PATTERN.flags).toBe('');
  });

  test('when a key name is one BMP character, alone or after a letter, then the contract and the server agree on it', () => {
    const contract = loadContract() as unknown as {
      components: { schemas: { KeyName: { pattern: string } } };
    };
    // As the server's validator (ajv, `u` flag) and the generated clients (zod, no flag) run it.
    const patterns = [
      new RegExp(contract.components.schemas.KeyName.pattern, 'u'),
      new RegExp(contract.components.schemas.KeyName.pattern),
    ];
    const disagreements: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // lone surrogates: the server's alone (a JSON test covers them)
      const ch = String.fromCharCode(code);
      for (const name of [ch, `a${ch}`]) {
        const server = keyNameProblem(name) === undefined;
        for (const pattern of patterns)
          if (pattern.test(name) !== server) disagreements.push(code.toString(16).padStart(4, '0'));
      }
    }
    expect([...new Set(disagreements)]).toEqual([]);
  });

  test('when the search takes a state code in any case, then its pattern allows exactly the codes', () => {
    const contract = loadContract() as unknown as { components: { schemas: { StateCodeInput: { pattern: string } } } };
    const pattern = new RegExp(contract.components.schemas.StateCodeInput.pattern);
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const allowed = [...letters].flatMap((a) => [...letters].map((b) => a + b)).filter((code) => pattern.test(code));
    expect(allowed.sort()).toEqual([...STATE_CODES].sort());
    for (const code of STATE_CODES) {
      const [a, b] = [code[0]!, code[1]!];
      for (const variant of [a + b, a.toLowerCase() + b.toLowerCase(), a + b.toLowerCase(), a.toLowerCase() + b])
        expect(pattern.test(variant), variant).toBe(true);
    }
  });
});

// openapi-backend's one job here: an independent reading of the contract's routing, so that
// every operation the contract declares has a handler, and each path template round-trips.
describe('contract coverage (openapi-backend)', () => {
  test('when the contract is read, then every operation has a handler and no handler is extra', async () => {
    const api = new OpenAPIBackend({ definition: loadContract() as unknown as Document, quick: true, validate: false });
    await api.init();
    const operations = api
      .getOperations()
      .map((o) => o.operationId!)
      .sort();
    const handlers = Object.keys(createHandlers({} as never)).sort();
    expect(handlers).toEqual(operations);
    for (const op of api.getOperations()) {
      const path = op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      expect(api.matchOperation({ method: op.method, path, headers: {} })?.operationId).toBe(op.operationId);
    }
  });
});
