// The search's `near` and `radius_km` as clients send them, and the two rules the contract states
// in words only (src/http/operations/search-input.ts): a point off the globe and radius_km without
// near are 400s that name the parameter. Raw URLs: the generated client encodes every comma.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { answer } from '../support/raw-http.ts';
import { expectProblem } from '../support/problem.ts';

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
  token = (await app.userClient()).token;
});

afterAll(async () => {
  await app?.close();
});

const search = async (queryString: string) =>
  answer(
    await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?${queryString}`, {
      headers: { Authorization: `Bearer ${token}` },
    }),
  );

describe('fetchSchoolSearch near', () => {
  test.each([
    ['the comma as typed', 'near=42.3736,-71.1097'],
    ['the comma percent-encoded', 'near=42.3736%2C-71.1097'],
    ['spaces as a form encoder writes them', 'near=+42.3736+,+-71.1097+'],
    ['spaces percent-encoded, a + sign encoded', 'near=%2042.3736%20,%20%2B71.1097'],
  ])('when near is sent with %s, then it is accepted', async (_, near) => {
    const { response } = await search(`query=harvard&${near}&radius_km=25`);

    expect(response.status).toBe(200);
  });

  test.each([
    ['a latitude beyond 90', 'near=90.5,0'],
    ['a longitude beyond 180', 'near=0,-180.01'],
  ])('when near has %s, then a 400 names near', async (_, near) => {
    const body = expectProblem(await search(`query=harvard&${near}`), 400, 'validation-error');

    expect(body.errors?.map((e) => [e.location, e.name])).toEqual([['query', 'near']]);
  });

  test('when radius_km comes without near, then a 400 names radius_km', async () => {
    const body = expectProblem(await search('query=harvard&radius_km=10'), 400, 'validation-error');

    expect(body.errors).toEqual([
      { location: 'query', name: 'radius_km', message: 'needs near (a point to measure from)' },
    ]);
  });
});
