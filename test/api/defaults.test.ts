// The contract is the one place a default is written: a request that leaves out a parameter (or a
// body field) the contract gives a default is answered with that default, whatever it is. Here the
// app serves a contract whose defaults differ from the shipped ones, so an answer that follows a
// copy of the shipped defaults in the code shows up. The handlers' input types say the same (checked
// by `npm run typecheck`, which type-checks this file): a field with a default is always there.
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import { createApiKey, fetchMyRequests, fetchMyUsage, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { loadContract, type Contract } from '../../src/http/contract.ts';
import type { Input } from '../../src/http/operations/operations.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** The shipped contract with other defaults: offset 1, limit 3, usage days 4, an API key's lifetime 7 days. */
function contractWithOtherDefaults(): Contract {
  const contract = loadContract();
  const at = (...keys: Array<string | ((items: unknown[]) => unknown)>): { default?: unknown } => {
    let node: unknown = contract;
    for (const key of keys)
      node = typeof key === 'string' ? (node as Record<string, unknown>)[key] : key(node as unknown[]);
    return node as { default?: unknown };
  };
  const named = (name: string) => (items: unknown[]) => items.find((p) => (p as { name?: string }).name === name);
  at('components', 'parameters', 'Offset', 'schema').default = 1;
  at('components', 'parameters', 'Limit', 'schema').default = 3;
  at('paths', '/v1/fetchMyUsage', 'get', 'parameters', named('days'), 'schema').default = 4;
  at('components', 'schemas', 'ApiKeyRequest', 'properties', 'expires_in_days').default = 7;
  return contract;
}

let app: TestApp;
let user: Awaited<ReturnType<TestApp['userClient']>>;
beforeAll(async () => {
  app = await startTestApp({ contract: contractWithOtherDefaults() });
  await app.seed(
    ['Alpha', 'Alder', 'Almond', 'Aloe', 'Alpine', 'Altus'].map((name) => ({
      schoolname: `${name} Academy`,
      city: 'Springfield',
      stateprovince: 'IL',
    })),
  );
  user = await app.userClient();
});
afterAll(() => app.close());

describe("defaults are the contract's", () => {
  test('when a search leaves out offset and limit, then the page starts at the default offset and holds the default limit', async () => {
    const r = await fetchSchoolSearch({ client: user.client, query: { query: 'academy' } });
    expect(r.response!.status).toBe(200);
    const result = r.data!.requestresult;
    expect([result.offset, result.limit, result.schools.length, result.total_count]).toEqual([1, 3, 3, 6]);
  });

  test('when the history leaves out offset and limit, then so does its page', async () => {
    for (let i = 0; i < 5; i++) await fetchSchoolSearch({ client: user.client, query: { query: `alpha ${i}` } });
    const r = await fetchMyRequests({ client: user.client });
    expect(r.response!.status).toBe(200);
    expect([r.data!.offset, r.data!.limit, r.data!.requests.length]).toEqual([1, 3, 3]);
  });

  test('when the usage leaves out days, then it has the default number of days', async () => {
    const r = await fetchMyUsage({ client: user.client });
    expect(r.response!.status).toBe(200);
    expect(r.data!.days).toHaveLength(4);
  });

  test('when an API key is asked for without a lifetime, then it lives the default number of days', async () => {
    const r = await createApiKey({
      client: user.client,
      body: { name: 'nightly export', current_password: user.password },
    });
    expect(r.response!.status).toBe(201);
    const lifetime = Date.parse(r.data!.expires_at) - Date.parse(r.data!.created_at);
    expect(lifetime).toBe(7 * 86_400_000);
  });
});

describe("the handlers' input types", () => {
  test('then a field the contract gives a default is always there, and the others are as the contract types them', () => {
    expectTypeOf<Input<'fetchSchoolSearch'>['query']['offset']>().toEqualTypeOf<number>();
    expectTypeOf<Input<'fetchSchoolSearch'>['query']['limit']>().toEqualTypeOf<number>();
    expectTypeOf<Input<'fetchSchoolSearch'>['query']['near']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Input<'fetchMyRequests'>['query']>().toEqualTypeOf<{
      cursor?: string | undefined;
      key_id?: string | undefined;
      offset: number;
      limit: number;
    }>();
    expectTypeOf<Input<'fetchMyUsage'>['query']['days']>().toEqualTypeOf<number>();
    expectTypeOf<Input<'createApiKey'>['body']['expires_in_days']>().toEqualTypeOf<number>();
    expectTypeOf<Input<'getSchool'>['path']>().toEqualTypeOf<{ schoolId: string }>();
    expectTypeOf<Input<'getLiveness'>['query']>().toBeNever();
  });
});
