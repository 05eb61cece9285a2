// GET /v1/fetchSchoolSearch: matching, scoring, ordering, paging, metering and bad input.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyRequests, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import type { School } from '../../generated/types.gen.ts';
import { zFetchSchoolSearchResponse } from '../../generated/zod.gen.ts';
import { StoreUnavailableError } from '../../src/domain/errors.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';
import { describeSearching, needsSearch } from '../support/capabilities.ts';

let app: TestApp;
let client: Awaited<ReturnType<TestApp['userClient']>>['client'];

const CATALOG = [
  { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' },
  { schoolname: 'Lincoln University', city: 'Jefferson City', stateprovince: 'MO' },
  { schoolname: 'Lincoln Memorial University', city: 'Harrogate', stateprovince: 'TN' },
  { schoolname: 'Abraham Lincoln High School', city: 'Denver', stateprovince: 'CO' },
  { schoolname: "St. Mary's College", city: 'Notre Dame', stateprovince: 'IN' },
  { schoolname: 'Saint Mary College', city: 'Leavenworth', stateprovince: 'KS' },
  { schoolname: 'École Polytechnique de Montréal', city: 'Montréal', stateprovince: 'QC' },
  { schoolname: 'Texas A & M University', city: 'College Station', stateprovince: 'TX' },
  { schoolname: 'Massachusetts Institute of Technology', city: 'Cambridge', stateprovince: 'MA', aliases: ['MIT'] },
  { schoolname: 'University of Toronto', city: 'Toronto', stateprovince: 'ON', image_url: 'https://logos.example.org/uoft.png' },
];

// 60 schools whose names tie in length in groups, to prove paging never repeats or skips.
const PAGING = Array.from({ length: 60 }, (_, i) => ({
  schoolname: `Paging Academy ${String.fromCharCode(65 + (i % 26))}${i < 26 ? '' : i < 52 ? 'x' : 'xy'}`,
  city: 'Springfield',
  stateprovince: i % 2 === 0 ? 'IL' : 'MO',
}));

beforeAll(async () => {
  app = await startTestApp();
  await app.seed([...CATALOG, ...PAGING]);
  client = (await app.userClient()).client;
});
afterAll(() => app.close());

async function search(query: Record<string, unknown>) {
  return fetchSchoolSearch({ client, query: query as never, ...unchecked });
}

async function names(query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const r = await search({ query, ...extra });
  expect(r.response!.status).toBe(200);
  return r.data!.requestresult.schools.map((s) => s.schoolname);
}

describeSearching('fetchSchoolSearch: matching', () => {
  test('when the query spells part of a name, then the score is the share of its letters covered', async () => {
    const scores = async (query: string) =>
      Object.fromEntries((await search({ query })).data!.requestresult.schools.map((s) => [s.schoolname, s.similarity_score]));
    expect(await scores('harvard')).toEqual({ 'Harvard University': 0.4118 }); // 7 / 17
    expect(await scores('harvard university')).toEqual({ 'Harvard University': 1 });
    expect(await scores('harv univ')).toEqual({ 'Harvard University': 0.4706 }); // 8 / 17
    expect((await scores('mit'))['Massachusetts Institute of Technology']).toBe(1); // the alias "MIT"
  });

  test('when the query is a full name, then that school comes first with a score in [0, 1]', async () => {
    const r = await search({ query: 'harvard' });
    expect(r.response!.status).toBe(200);
    const body = zFetchSchoolSearchResponse.parse(r.data);
    const first = body.requestresult.schools[0]!;
    expect(first.schoolname).toBe('Harvard University');
    expect(first.city).toBe('Cambridge');
    expect(first.stateprovince).toBe('MA');
    expect(first.similarity_score).toBeGreaterThan(0);
    expect(first.similarity_score).toBeLessThanOrEqual(1);
  });

  test.each([
    ['a prefix', 'linc', ['Lincoln University', 'Abraham Lincoln High School', 'Lincoln Memorial University']],
    ['words in any order', 'university lincoln', ['Lincoln University', 'Lincoln Memorial University']],
    ['other case', 'HARVARD', ['Harvard University']],
    ['no accents', 'ecole montreal', ['École Polytechnique de Montréal']],
    ['accents in the query', 'ÉCOLE Montréal', ['École Polytechnique de Montréal']],
    ['an abbreviation and a missing apostrophe', 'st marys', ["St. Mary's College"]],
    ['the long form of an abbreviation', 'saint mary', ["St. Mary's College", 'Saint Mary College']],
    ['an ampersand written together', 'texas a&m', ['Texas A & M University']],
    ['an alternative name', 'mit', ['Massachusetts Institute of Technology']],
    ['one-letter words, which match whole words only', 'texas a m', ['Texas A & M University']],
    ['a single letter, which matches only that whole word (not Lincoln)', 'l', ['Paging Academy L']],
  ])('when the query uses %s, then it matches', async (_what, query, expected) => {
    expect(await names(query)).toEqual(expected);
  });

  test('when aliases are placeholders or fragments of the name, then they are not indexed', async () => {
    const local = await startTestApp();
    try {
      await local.seed([{ schoolname: 'Fragment Valley College', city: 'X', stateprovince: 'WA', aliases: ['n/a', 'College', 'Valley College', 'FVC'] }]);
      const user = await local.userClient();
      const score = async (query: string) =>
        (await fetchSchoolSearch({ client: user.client, query: { query } })).data!.requestresult.schools.map((s) => s.similarity_score);
      expect(await score('college')).toEqual([0.3333]); // 7 of the name's 21 letters, not 1 via the alias "College"
      expect(await score('fvc')).toEqual([1]);
      expect(await score('n a')).toEqual([]);
    } finally {
      await local.close();
    }
  });

  test('when a word matches nothing, then the result is empty with total 0', async () => {
    const r = await search({ query: 'lincoln zebra' });
    expect(r.response!.status).toBe(200);
    expect(r.data!.requestresult).toEqual({ schools: [], total_count: 0, offset: 0, limit: 25 });
  });

  test('when stateCode is given, then only schools of that state match', async () => {
    expect(await names('lincoln', { stateCode: 'TN' })).toEqual(['Lincoln Memorial University']);
    expect(await names('university', { stateCode: 'ON' })).toEqual(['University of Toronto']);
  });

  test('when a school has a logo, then image_url is it; otherwise a monogram this API serves', async () => {
    const r = await search({ query: 'university' });
    const schools = r.data!.requestresult.schools;
    expect(schools.find((s) => s.schoolname === 'University of Toronto')!.image_url).toBe('https://logos.example.org/uoft.png');
    const harvard = schools.find((s) => s.schoolname === 'Harvard University')!;
    expect(harvard.image_url).toBe(`http://images.test/images/schools/${harvard.schoolid}.svg`);
  });

  test.each([
    '"', '""', "'", '*', '"harvard" OR 1=1', 'NEAR(harvard university)', 'harvard*', '-harvard', 'harvard -university',
    '$ne', '{"$ne": null}', '.*', '^(a+)+$', '[a-z]', '\\', '%', '_', 'AND', 'OR NOT', 'a:b', 'name:harvard', '^harvard',
    'harvard\u0000', '\u202e', '😀 harvard', 'x'.repeat(200),
    'a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp',
  ])('when the query is hostile (%s), then the answer is a normal 200', async (query) => {
    const r = await search({ query });
    expect(r.response!.status).toBe(200);
    zFetchSchoolSearchResponse.parse(r.data);
  });

  test('when hostile syntax wraps a real word, then only the word counts', async () => {
    expect(await names('"harvard" OR "lincoln"')).toEqual([]);
    expect(await names('harvard*')).toEqual(['Harvard University']);
    expect(await names('NEAR(harvard)')).toEqual([]);
  });
});

describeSearching('fetchSchoolSearch: order and paging', () => {
  test('when results tie, then order is score desc, then name, then id, and total_count is in every element', async () => {
    const r = await search({ query: 'paging', limit: 25 });
    const { schools, total_count } = r.data!.requestresult;
    expect(total_count).toBe(60);
    for (const s of schools) expect(s.total_count).toBe(60);
    // "Paging Academy A" (14 letters) ... then the "x" names (15), then the "xy" names (16).
    const key = (s: School) => [-s.similarity_score, s.schoolname.toLowerCase(), s.schoolid] as const;
    const sorted = [...schools].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x[0] - y[0] || x[1].localeCompare(y[1]) || x[2].localeCompare(y[2]);
    });
    expect(schools.map((s) => s.schoolname)).toEqual(sorted.map((s) => s.schoolname));
    expect(schools.slice(0, 3).map((s) => s.schoolname)).toEqual(['Paging Academy A', 'Paging Academy B', 'Paging Academy C']);
    expect(schools[0]!.similarity_score).toBe(0.4286); // "paging" covers 6 of the 14 letters
  });

  test('when two schools have the same name, then the one with the smaller id comes first', async () => {
    const local = await startTestApp();
    try {
      const drafts = await local.seed([
        { schoolname: 'Twin Peaks College', city: 'Alpha', stateprovince: 'WA' },
        { schoolname: 'Twin Peaks College', city: 'Beta', stateprovince: 'WA' },
        { schoolname: 'Twin College', city: 'Gamma', stateprovince: 'WA' },
      ]);
      const user = await local.userClient();
      const r = await fetchSchoolSearch({ client: user.client, query: { query: 'twin' } });
      const twins = drafts.filter((d) => d.name === 'Twin Peaks College').map((d) => d.id).sort();
      expect(r.data!.requestresult.schools.map((s) => s.schoolid)).toEqual([drafts[2]!.id, ...twins]);
    } finally {
      await local.close();
    }
  });

  test('when the query covers more letters than a name has, then the score is 1 and ties order by name', async () => {
    const local = await startTestApp();
    try {
      await local.seed([
        { schoolname: 'Saint Marys', city: 'A', stateprovince: 'WA' },
        { schoolname: 'St Marys', city: 'B', stateprovince: 'WA' },
      ]);
      const user = await local.userClient();
      const r = await fetchSchoolSearch({ client: user.client, query: { query: 'saint marys' } });
      expect(r.data!.requestresult.schools.map((s) => [s.schoolname, s.similarity_score])).toEqual([
        ['Saint Marys', 1],
        ['St Marys', 1],
      ]);
    } finally {
      await local.close();
    }
  });

  test('when paging with offset 0, N, 2N, then the pages join into the whole list with no repeat or gap', async () => {
    const pages: School[][] = [];
    for (let offset = 0; offset < 60; offset += 25) {
      const r = await search({ query: 'paging', offset, limit: 25 });
      expect(r.data!.requestresult.offset).toBe(offset);
      expect(r.data!.requestresult.schools.length).toBeLessThanOrEqual(25);
      pages.push(r.data!.requestresult.schools);
    }
    expect(pages.map((p) => p.length)).toEqual([25, 25, 10]);
    const ids = pages.flat().map((s) => s.schoolid);
    expect(new Set(ids).size).toBe(60);
    // The same list in one go with a small page size, asked twice: identical order.
    const again: string[] = [];
    for (let offset = 0; offset < 60; offset += 7) {
      const r = await search({ query: 'paging', offset, limit: 7 });
      again.push(...r.data!.requestresult.schools.map((s) => s.schoolid));
    }
    expect(again).toEqual(ids);
  });

  test('when offset N is given, then the page starts at record N+1', async () => {
    const all = (await search({ query: 'paging', limit: 25 })).data!.requestresult.schools;
    const page = (await search({ query: 'paging', offset: 3, limit: 2 })).data!.requestresult.schools;
    expect(page.map((s) => s.schoolid)).toEqual(all.slice(3, 5).map((s) => s.schoolid));
  });

  test('when offset is past the end, then 200 with an empty page that still tells the total', async () => {
    const r = await search({ query: 'paging', offset: 500 });
    expect(r.response!.status).toBe(200);
    expect(r.data!.requestresult).toEqual({ schools: [], total_count: 60, offset: 500, limit: 25 });
  });

  test('when schools are imported after a search, then the next total counts them', async () => {
    const local = await startTestApp();
    try {
      const many = (n: number, from = 0) =>
        Array.from({ length: n }, (_, i) => ({ schoolname: `Counted College ${from + i}`, city: 'Ames', stateprovince: 'IA' }));
      await local.seed(many(30));
      const user = await local.userClient();
      const total = async () =>
        (await fetchSchoolSearch({ client: user.client, query: { query: 'counted', limit: 10 } })).data!.requestresult.total_count;
      expect(await total()).toBe(30);
      expect(await total()).toBe(30);
      await local.seed(many(5, 30));
      expect(await total()).toBe(35);
    } finally {
      await local.close();
    }
  });

  test('when limit is not given, then it is 25', async () => {
    const r = await search({ query: 'paging' });
    expect(r.data!.requestresult.limit).toBe(25);
    expect(r.data!.requestresult.schools).toHaveLength(25);
  });
});

describe('fetchSchoolSearch: metering', () => {
  test('when a search answers, then its record is already in the caller history', async (ctx) => {
    needsSearch(ctx);
    const user = await app.userClient();
    const r = await fetchSchoolSearch({ client: user.client, query: { query: 'Harvard Univ' } });
    const record = r.data!.apirequest;
    expect(record.trequestmade).toBe('search_schools:Harvard Univ');
    expect(record.trequestcost).toBe(1);
    expect(record.ttimemade).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const history = await fetchMyRequests({ client: user.client });
    expect(history.data!.requests).toEqual([record]);
  });

  test('when a search is refused, then nothing is metered', async () => {
    const user = await app.userClient();
    await fetchSchoolSearch({ client: user.client, query: { query: 'x', limit: 26 }, ...unchecked });
    const history = await fetchMyRequests({ client: user.client });
    expect(history.data!.total_count).toBe(0);
  });
});

describe('fetchSchoolSearch: bad input', () => {
  test.each([
    ['limit 26', { query: 'a', limit: 26 }, 'limit'],
    ['limit 0', { query: 'a', limit: 0 }, 'limit'],
    ['limit not a number', { query: 'a', limit: 'ten' }, 'limit'],
    ['a negative offset', { query: 'a', offset: -1 }, 'offset'],
    ['an offset past the deep-paging guard', { query: 'a', offset: 10_001 }, 'offset'],
    ['no query', {}, 'query'],
    ['an empty query', { query: '' }, 'query'],
    ['a blank query', { query: '   ' }, 'query'],
    ['a query over 200 characters', { query: 'x'.repeat(201) }, 'query'],
    ['a lower-case state code', { query: 'a', stateCode: 'ma' }, 'stateCode'],
    ['an unknown state code', { query: 'a', stateCode: 'XX' }, 'stateCode'],
    ['an unknown parameter', { query: 'a', sort: 'name' }, 'sort'],
    ['an operator object', { 'query[$ne]': 'x' }, 'query'],
  ])('when the request has %s, then 400 names the parameter', async (_what, query, name) => {
    const r = await search(query);
    const problem = expectProblem(r, 400, 'validation-error');
    expect(problem.errors?.some((e) => e.in === 'query' && e.name.startsWith(name))).toBe(true);
  });

  test('when several parameters are wrong, then every one is listed', async () => {
    const r = await search({ query: 'a', limit: 99, offset: -1, stateCode: 'ma' });
    const problem = expectProblem(r, 400, 'validation-error');
    expect(new Set(problem.errors!.map((e) => e.name))).toEqual(new Set(['limit', 'offset', 'stateCode']));
  });

  test('when the state code is wrong, then the answer lists what is allowed', async () => {
    const r = await search({ query: 'a', stateCode: 'XX' });
    expect(expectProblem(r, 400, 'validation-error').detail).toContain('QC');
  });

  test('when there is no token, then 401', async () => {
    const r = await fetchSchoolSearch({ client: app.client(), query: { query: 'harvard' } });
    expectProblem(r, 401, 'unauthorized');
  });
});

describe('fetchSchoolSearch: store failures', () => {
  test('when the store is unavailable, then 503 with Retry-After and nothing metered', async () => {
    const user = await app.userClient();
    const schools = app.services.store.schools;
    const original = schools.search.bind(schools);
    schools.search = async () => {
      throw new StoreUnavailableError();
    };
    try {
      const r = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
      expectProblem(r, 503, 'service-unavailable');
      expect(r.response!.headers.get('retry-after')).toBe('5');
    } finally {
      schools.search = original;
    }
    expect((await fetchMyRequests({ client: user.client })).data!.total_count).toBe(0);
  });

  test('when the store fails unexpectedly, then 500 without internals', async () => {
    const user = await app.userClient();
    const requests = app.services.store.requests;
    const original = requests.append.bind(requests);
    requests.append = async () => {
      throw new Error('SQLITE_CORRUPT: database disk image is malformed at /var/lib/secret.db');
    };
    try {
      const r = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
      expectProblem(r, 500, 'internal-error');
    } finally {
      requests.append = original;
    }
  });
});
