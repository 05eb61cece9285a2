// GET /v1/fetchSchoolSearch through the generated client: each rule of the search (one describe
// per rule, numbered as in the README), metering, bad input and store failures, on one engine.
// Every engine runs them (search.test.ts and its siblings); a rule an engine does not offer is
// skipped there with the reason printed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyRequests, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import type { School } from '../../generated/types.gen.ts';
import { zFetchSchoolSearchResponse } from '../../generated/zod.gen.ts';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import type { SchoolInput } from '../../src/domain/catalog/school-draft.ts';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

export interface SearchTarget {
  /** Named in every title. */
  readonly name: string;
  /** Default: the in-process index. */
  readonly engine?: TestAppOptions['engine'];
  /** Why this engine has no typo matching, when it has none: the typo tests are skipped with it. */
  readonly withoutTypos?: string;
  /** Why this engine cannot filter by level and type, when it cannot: those tests (and radius_km's) are skipped with it. */
  readonly withoutFilters?: string;
  /** Why this engine cannot rank by distance from `near`, when it cannot: those tests (and radius_km's) are skipped with it. */
  readonly withoutNear?: string;
}

export function searchRules(target: SearchTarget): void {
  if (target.withoutTypos) console.warn(`${target.name}: typo tests skipped: ${target.withoutTypos}`);
  if (target.withoutFilters) console.warn(`${target.name}: level and type tests skipped: ${target.withoutFilters}`);
  if (target.withoutNear) console.warn(`${target.name}: near tests skipped: ${target.withoutNear}`);
  // radius_km is a filter by distance: it needs both.
  const withoutRadius = target.withoutNear ?? target.withoutFilters;
  if (withoutRadius) console.warn(`${target.name}: radius_km tests skipped: ${withoutRadius}`);
  /** A test that needs typo matching: skipped, the reason in its title, on an engine without it. */
  const typoTest = target.withoutTypos ? test.skip : test;
  /** Tests of the level and type filters, of near, and of radius_km (a filter by distance): skipped likewise. */
  const filterTest = target.withoutFilters ? test.skip : test;
  const nearTest = target.withoutNear ? test.skip : test;
  const radiusTest = withoutRadius ? test.skip : test;
  describe(target.name, () => {
    let app: TestApp;
    let client: Awaited<ReturnType<TestApp['userClient']>>['client'];

    // Prominence differs only where a test is about it; elsewhere ties go to the name, then the id.
    const CATALOG = [
      { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA', prominence: 100 },
      { schoolname: 'Lincoln University', city: 'Jefferson City', stateprovince: 'MO' },
      { schoolname: 'Lincoln Memorial University', city: 'Harrogate', stateprovince: 'TN' },
      { schoolname: 'Abraham Lincoln High School', city: 'Denver', stateprovince: 'CO' },
      { schoolname: "St. Mary's College", city: 'Notre Dame', stateprovince: 'IN' },
      { schoolname: 'Saint Mary College', city: 'Leavenworth', stateprovince: 'KS' },
      { schoolname: 'Sainte-Anne Academy', city: 'Sherbrooke', stateprovince: 'QC' },
      { schoolname: 'École Polytechnique de Montréal', city: 'Montréal', stateprovince: 'QC' },
      { schoolname: 'École Saint-Louis', city: 'Montréal', stateprovince: 'QC' },
      { schoolname: 'École secondaire Pierre-De-Coubertin', city: 'Montréal', stateprovince: 'QC' },
      {
        schoolname: 'Université Laval',
        city: 'Québec',
        stateprovince: 'QC',
        address: '2325, rue de l’Université',
        postal_code: 'G1V 0A6',
        latitude: 46.7817,
        longitude: -71.2748,
      },
      { schoolname: 'Texas A & M University', city: 'College Station', stateprovince: 'TX' },
      { schoolname: 'Massachusetts Institute of Technology', city: 'Cambridge', stateprovince: 'MA', aliases: ['MIT'] },
      {
        schoolname: 'University of Toronto',
        city: 'Toronto',
        stateprovince: 'ON',
        image_url: 'https://logos.example.org/uoft.png',
      },
      { schoolname: 'Humber College', city: 'Toronto', stateprovince: 'ON' },
      { schoolname: 'Rutgers University-New Brunswick', city: 'New Brunswick', stateprovince: 'NJ' },
      { schoolname: 'Northwest College of Art & Design', city: 'Tacoma', stateprovince: 'WA' },
      { schoolname: 'Mount Holyoke College', city: 'South Hadley', stateprovince: 'MA' },
      { schoolname: 'Houston Community College', city: 'Houston', stateprovince: 'TX' },
      { schoolname: "Queen's University", city: 'Kingston', stateprovince: 'ON' },
      { schoolname: 'Queens College', city: 'Queens', stateprovince: 'NY' },
      { schoolname: 'Wilkes-Barre Area Career and Technical Center', city: 'Wilkes-Barre', stateprovince: 'PA' },
    ];

    // 60 schools whose names match "paging" alike, to prove paging never repeats or skips.
    const PAGING = Array.from({ length: 60 }, (_, i) => ({
      schoolname: `Paging Academy ${String.fromCharCode(65 + (i % 26))}${i < 26 ? '' : i < 52 ? 'x' : 'xy'}`,
      city: 'Springfield',
      stateprovince: i % 2 === 0 ? 'IL' : 'MO',
    }));

    // Namesakes of every level and type, most around Cambridge, MA (the tests' `near`), a few far
    // away, two without coordinates, one of unknown level and type: for filters, near and radius.
    const CAMBRIDGE = '42.3736,-71.1097';
    const PLACED: SchoolInput[] = [
      ...[
        ['Cambridge', 'MA', 'public', 42.3782, -71.1162],
        ['Brookline', 'MA', 'public', 42.3318, -71.1212],
        ['Boston', 'MA', 'private', 42.3601, -71.0589],
        ['Omaha', 'NE', 'public', 41.2565, -95.9345],
        ['Denver', 'CO', 'private', 39.7392, -104.9903],
        ['Springfield', 'IL', 'public'],
      ].map(([city, state, type, latitude, longitude]) => ({
        schoolname: 'Lincoln Elementary School',
        city: city as string,
        stateprovince: state as string,
        level: 'elementary',
        type: type as string,
        ...(city === 'Cambridge' ? { tags: ['charter'] } : {}),
        ...(latitude === undefined ? {} : { latitude: latitude as number, longitude: longitude as number }),
      })),
      {
        schoolname: 'Lincolnshire Elementary School',
        city: 'Cambridge',
        stateprovince: 'MA',
        level: 'elementary',
        type: 'public',
        latitude: 42.3736,
        longitude: -71.1097,
      },
      {
        schoolname: 'Lincoln Middle School',
        city: 'Cambridge',
        stateprovince: 'MA',
        level: 'middle',
        type: 'public',
        latitude: 42.3751,
        longitude: -71.1056,
      },
      {
        schoolname: 'Lincoln High School',
        city: 'Boston',
        stateprovince: 'MA',
        level: 'high',
        type: 'public',
        latitude: 42.3496,
        longitude: -71.0707,
      },
      {
        schoolname: 'Lincoln High School',
        city: 'Portland',
        stateprovince: 'OR',
        level: 'high',
        type: 'public',
        latitude: 45.5152,
        longitude: -122.6784,
      },
      {
        schoolname: 'Lincoln Academy',
        city: 'Newcastle',
        stateprovince: 'ME',
        level: 'high',
        type: 'private',
        latitude: 44.0337,
        longitude: -69.5362,
      },
      {
        schoolname: 'Lincoln Charter School',
        city: 'York',
        stateprovince: 'PA',
        level: 'other',
        type: 'public',
        tags: ['charter'],
        latitude: 39.9626,
        longitude: -76.7277,
      },
      {
        schoolname: 'Lincoln University',
        city: 'Jefferson City',
        stateprovince: 'MO',
        level: 'postsecondary',
        type: 'postsecondary',
        latitude: 38.5767,
        longitude: -92.1735,
      },
      {
        schoolname: 'Lincoln Memorial University',
        city: 'Harrogate',
        stateprovince: 'TN',
        level: 'postsecondary',
        type: 'postsecondary',
        latitude: 36.5826,
        longitude: -83.6569,
      },
      {
        schoolname: 'Lincoln College of Technology',
        city: 'Denver',
        stateprovince: 'CO',
        level: 'postsecondary',
        type: 'postsecondary',
      },
      {
        schoolname: 'Lincoln Learning Center',
        city: 'Cambridge',
        stateprovince: 'MA',
        latitude: 42.3736,
        longitude: -71.1097,
      },
      {
        schoolname: 'Cambridge Rindge and Latin School',
        city: 'Cambridge',
        stateprovince: 'MA',
        level: 'high',
        type: 'public',
        latitude: 42.3744,
        longitude: -71.1143,
      },
    ];
    /** The schools of PLACED a search for "lincoln" finds (every name with a word starting so). */
    const LINCOLNS = PLACED.filter((s) => /\blincoln/i.test(s.schoolname));
    let placed: TestApp;
    let placedClient: typeof client;

    beforeAll(async () => {
      [app, placed] = await Promise.all([
        startTestApp({ engine: target.engine }),
        startTestApp({ engine: target.engine }),
      ]);
      await Promise.all([app.seed([...CATALOG, ...PAGING]), placed.seed(PLACED)]);
      client = (await app.userClient()).client;
      placedClient = (await placed.userClient()).client;
    });
    afterAll(() => Promise.all([app.close(), placed.close()]));

    async function search(query: Record<string, unknown>) {
      return fetchSchoolSearch({ client, query: query as never, ...unchecked });
    }

    /** The whole answer (one page holds every school) among PLACED. */
    async function placedFind(query: string, extra: Record<string, unknown> = {}) {
      const r = await fetchSchoolSearch({ client: placedClient, query: { query, limit: 25, ...extra } as never });
      expect(r.response!.status).toBe(200);
      return r.data!.requestresult;
    }

    /** "name, city", to tell namesakes apart. */
    const where = (s: { schoolname: string; city: string }) => `${s.schoolname}, ${s.city}`;

    async function names(query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
      const r = await search({ query, ...extra });
      expect(r.response!.status).toBe(200);
      return r.data!.requestresult.schools.map((s) => s.schoolname);
    }

    async function first(query: string, extra: Record<string, unknown> = {}): Promise<School | undefined> {
      const r = await search({ query, ...extra });
      expect(r.response!.status).toBe(200);
      return r.data!.requestresult.schools[0];
    }

    /** A test app of its own with these schools, and a search function on it. */
    async function withCatalog(
      schools: SchoolInput[],
      run: (find: (query: string, extra?: Record<string, unknown>) => Promise<School[]>) => Promise<void>,
    ): Promise<void> {
      const local = await startTestApp({ engine: target.engine });
      try {
        await local.seed(schools);
        const user = await local.userClient();
        await run(async (query, extra = {}) => {
          const r = await fetchSchoolSearch({ client: user.client, query: { query, ...extra } as never });
          expect(r.response!.status).toBe(200);
          return r.data!.requestresult.schools;
        });
      } finally {
        await local.close();
      }
    }

    describe('fetchSchoolSearch: 1. typos', () => {
      typoTest.each([
        ['a substituted letter', 'ruhgers', 'Rutgers University-New Brunswick'],
        ['a wrong first letter', 'yarvard', 'Harvard University'],
        ['two swapped letters', 'harvrad', 'Harvard University'],
        ['a missing letter', 'harvrd', 'Harvard University'],
        ['an extra letter', 'harvaard', 'Harvard University'],
        ['two edits in a word of 9+ letters', 'masachusets', 'Massachusetts Institute of Technology'],
        ['a typo among right words', 'ruhgers university', 'Rutgers University-New Brunswick'],
      ])('when a word has %s, then the school is still found', async (_what, query, expected) => {
        expect((await first(query))?.schoolname).toBe(expected);
      });

      test.each([
        ['a word of 4 letters with one edit', 'yael'],
        ['a word of 5–8 letters with two edits', 'hravrda'],
        ['a word of 9+ letters with three edits', 'mossochusotts'],
      ])('when %s, then it is no match', async (_what, query) => {
        expect((await search({ query })).data!.requestresult.total_count).toBe(0);
      });

      typoTest(
        'when one word matches a name exactly, another as a prefix and a third with a typo, then that is the order',
        async () => {
          await withCatalog(
            [
              { schoolname: 'Marian College', city: 'A', stateprovince: 'WI' },
              { schoolname: 'Marionville Academy', city: 'B', stateprovince: 'MO' },
              { schoolname: 'Marion Technical College', city: 'C', stateprovince: 'OH' },
            ],
            async (find) => {
              const hits = await find('marion');
              expect(hits.map((s) => s.schoolname)).toEqual([
                'Marion Technical College',
                'Marionville Academy',
                'Marian College',
              ]);
              expect(hits.map((s) => s.similarity_score)).toEqual([0.95, 0.76, 0.57]);
            },
          );
        },
      );
    });

    describe('fetchSchoolSearch: 2. prefixes', () => {
      test.each([
        [
          'the last word as a one-letter prefix (the name that starts with the query first)',
          'lincoln u',
          ['Lincoln University', 'Lincoln Memorial University'],
        ],
        ['every word a prefix', 'linc mem', ['Lincoln Memorial University']],
        [
          'a prefix of one word (names that start with it first)',
          'linc',
          ['Lincoln Memorial University', 'Lincoln University', 'Abraham Lincoln High School'],
        ],
        [
          'words in any order (here spelling the whole name)',
          'university lincoln',
          ['Lincoln University', 'Lincoln Memorial University'],
        ],
      ])('when the query has %s, then it matches', async (_what, query, expected) => {
        expect(await names(query)).toEqual(expected);
      });

      test('when the last word typed is a small word, then it is a start like any other (the user is typing on)', async () => {
        expect(await names('university of')).toEqual(['University of Toronto']);
        expect(await names('university of', { stateCode: 'ON' })).toEqual(['University of Toronto']);
        // Small words before the last are never required.
        expect(await names('harvard of university')).toEqual(['Harvard University']);
      });

      test('when a word is a whole word of one name and the start of a word of another, then the whole word ranks first', async () => {
        await withCatalog(
          [
            { schoolname: 'Lincolnshire Academy', city: 'A', stateprovince: 'IL', prominence: 100 },
            { schoolname: 'Lincoln Academy', city: 'B', stateprovince: 'ME' },
          ],
          async (find) =>
            expect((await find('lincoln')).map((s) => s.schoolname)).toEqual([
              'Lincoln Academy',
              'Lincolnshire Academy',
            ]),
        );
      });
    });

    describe('fetchSchoolSearch: 3. soft matching', () => {
      test.each([
        ['an extra stop word', 'the harvard university', 'Harvard University'],
        ['an extra word no school has', 'harvard zebra', 'Harvard University'],
        ['an extra word that no school has together with the others', 'harvard polytechnique', 'Harvard University'],
        ['the English word for the French one', 'laval university', 'Université Laval'],
      ])('when the query has %s, then the best partial match is returned', async (_what, query, expected) => {
        expect((await first(query))?.schoolname).toBe(expected);
      });

      test('when no school has every word, then the most common word is left out first, and partial matches score below 0.5', async () => {
        // "montreal" (three schools) is more common than "polytechnique" (one) and "harvard" (one):
        // it goes first, then the later of the two remaining: Harvard is found, scored 1 of 3 words.
        const r = await search({ query: 'polytechnique harvard montreal' });
        expect(r.data!.requestresult.schools.map((s) => s.schoolname)).toEqual(['École Polytechnique de Montréal']);
        expect(r.data!.requestresult.schools[0]!.similarity_score).toBeLessThan(0.95);
        const soft = await search({ query: 'polytechnique zebra' });
        expect(soft.data!.requestresult.schools.map((s) => [s.schoolname, s.similarity_score])).toEqual([
          ['École Polytechnique de Montréal', 0.475],
        ]);
      });

      test('when a word is one no school has, then it is left out as if not typed, and the score still counts it', async () => {
        // Without "zyxw" the query is the name: equality, first, scored 2 of 3 words.
        expect(await first('harvard university zyxw')).toMatchObject({
          schoolname: 'Harvard University',
          similarity_score: 0.6667,
        });
        expect(await first('zyxw lincoln university')).toMatchObject({
          schoolname: 'Lincoln University',
          similarity_score: 0.6667,
        });
      });

      test('when a query is only noise, then 200 with nothing found', async () => {
        for (const query of ['zxqv', 'zxqv qqqw', '***', '%%', 'qwrtzpl vbnmxz']) {
          expect((await search({ query })).data!.requestresult).toEqual({
            schools: [],
            total_count: 0,
            offset: 0,
            limit: 25,
          });
        }
      });
    });

    describe('fetchSchoolSearch: 4. normalisation and synonyms', () => {
      test('when K-12 names are abbreviated by the directory or by the user, then each finds the other', async () => {
        await withCatalog(
          [
            { schoolname: 'SMITH EL', city: 'Dallas', stateprovince: 'TX' },
            { schoolname: 'El Paso High School', city: 'El Paso', stateprovince: 'TX' },
            { schoolname: 'ALBERTVILLE ELEM SCH', city: 'Albertville', stateprovince: 'AL' },
            { schoolname: 'Jefferson Middle School', city: 'Jefferson', stateprovince: 'GA' },
            { schoolname: 'P.S. 123 Mahalia Jackson', city: 'New York', stateprovince: 'NY' },
            { schoolname: 'KIPP Houston Preparatory Academy', city: 'Houston', stateprovince: 'TX' },
          ],
          async (find) => {
            const top = async (q: string) => (await find(q))[0]?.schoolname;
            // "El" after the first word is Elementary; first, it is the Spanish article. (Names
            // published ALL CAPS are shown in title case.)
            expect(await top('smith elementary')).toBe('Smith El');
            expect((await find('smith elementary'))[0]?.similarity_score).toBe(1);
            expect((await find('elementary')).map((s) => s.schoolname).sort()).toEqual([
              'Albertville Elem Sch',
              'Smith El',
            ]);
            expect(await top('albertville elementary school')).toBe('Albertville Elem Sch');
            expect(await top('jefferson ms')).toBe('Jefferson Middle School');
            expect(await top('ps 123')).toBe('P.S. 123 Mahalia Jackson');
            expect(await top('public school 123')).toBe('P.S. 123 Mahalia Jackson');
            expect((await find('kipp houston prep acad'))[0]?.similarity_score).toBe(1);
          },
        );
      });

      test.each([
        ['other case', 'HARVARD', 'Harvard University'],
        ['no accents', 'ecole polytechnique montreal', 'École Polytechnique de Montréal'],
        ['accents in the query', 'ÉCOLE Polytéchnique', 'École Polytechnique de Montréal'],
        ['"and" for "&"', 'northwest college of art and design', 'Northwest College of Art & Design'],
        ['A&M written together', 'texas a&m', 'Texas A & M University'],
        ['A & M spaced', 'texas a & m', 'Texas A & M University'],
        ['A and M', 'texas a and m', 'Texas A & M University'],
        ['AM as one word', 'texas am', 'Texas A & M University'],
        ['st for saint, without the apostrophe', 'st marys college', "St. Mary's College"],
        ['saint for st', 'saint marys', "St. Mary's College"],
        ['ste for sainte, without the hyphen', 'ste anne', 'Sainte-Anne Academy'],
        ['mt for mount', 'mt holyoke', 'Mount Holyoke College'],
        ['univ for university', 'harvard univ', 'Harvard University'],
        ['cc for community college', 'houston cc', 'Houston Community College'],
        ['a hyphenated name written with spaces', 'pierre de coubertin', 'École secondaire Pierre-De-Coubertin'],
        [
          'a hyphenated name written with a space',
          'wilkes barre career',
          'Wilkes-Barre Area Career and Technical Center',
        ],
        ['the apostrophe left out', 'queens university', "Queen's University"],
        ['the apostrophe typed', "queen's college", 'Queens College'],
        ['an alternative name', 'mit', 'Massachusetts Institute of Technology'],
      ])('when the query uses %s, then it finds the school', async (_what, query, expected) => {
        expect((await first(query))?.schoolname).toBe(expected);
      });

      test('when the query is the name spelled another way, then it is the name: score 1', async () => {
        for (const [query, name] of [
          ['northwest college of art and design', 'Northwest College of Art & Design'],
          ['texas a and m university', 'Texas A & M University'],
          ['saint marys college', "St. Mary's College"],
          ['houston cc', 'Houston Community College'],
          ['harvard univ', 'Harvard University'],
        ]) {
          expect(await first(query!), query).toMatchObject({ schoolname: name, similarity_score: 1 });
        }
      });

      test('when hostile syntax wraps real words, then only the words count', async () => {
        expect(await names('"harvard" OR "lincoln"')).toContain('Harvard University');
        expect((await first('harvard*'))?.schoolname).toBe('Harvard University');
        expect((await first('NEAR(harvard)'))?.schoolname).toBe('Harvard University');
      });

      test('when aliases are placeholders or fragments of the name, then they are not indexed', async () => {
        await withCatalog(
          [
            {
              schoolname: 'Fragment Valley College',
              city: 'X',
              stateprovince: 'WA',
              aliases: ['n/a', 'College', 'Valley College', 'FVC'],
            },
          ],
          async (find) => {
            // "college" is a word of the name, not the alias "College": not the alias's equality score.
            expect((await find('college')).map((s) => s.similarity_score)).toEqual([0.95]);
            expect((await find('fvc')).map((s) => s.similarity_score)).toEqual([0.97]);
            expect(await find('n a')).toEqual([]);
          },
        );
      });
    });

    describe('fetchSchoolSearch: 5. city', () => {
      test('when a word is the city, then schools there match, below schools with the word in their name', async () => {
        expect(await names('toronto')).toEqual(['University of Toronto', 'Humber College']);
        expect(await names('college toronto')).toEqual(['Humber College']);
      });

      test('when the name and the city together match every word, then the school is found', async () => {
        expect(await names('ecole montreal')).toEqual([
          'École Polytechnique de Montréal',
          'École Saint-Louis',
          'École secondaire Pierre-De-Coubertin',
        ]);
        expect((await first('harvard cambridge'))?.schoolname).toBe('Harvard University');
      });
    });

    describe('fetchSchoolSearch: 6. ranking', () => {
      test("when the query is a school's whole name, then that school is first, before a school with it as an alternative name, before longer names", async () => {
        await withCatalog(
          [
            {
              schoolname: 'Sheridan College Institute of Technology',
              city: 'Oakville',
              stateprovince: 'ON',
              prominence: 100,
            },
            {
              schoolname: 'Sheridan Technical Campus',
              city: 'Fort Lauderdale',
              stateprovince: 'FL',
              aliases: ['Sheridan College'],
              prominence: 90,
            },
            { schoolname: 'Sheridan College', city: 'Sheridan', stateprovince: 'WY' },
          ],
          async (find) => {
            const hits = await find('sheridan college');
            expect(hits.map((s) => [s.schoolname, s.similarity_score])).toEqual([
              ['Sheridan College', 1],
              ['Sheridan Technical Campus', 0.97],
              ['Sheridan College Institute of Technology', 0.95],
            ]);
          },
        );
      });

      test('when the query names several schools, then those named exactly as typed come first, before an equivalent spelling, whatever the name sorts by', async () => {
        await withCatalog(
          [
            { schoolname: 'Hillview Elem.', city: 'Hillview', stateprovince: 'MO' },
            { schoolname: 'Hillview Elementary', city: 'Hillview', stateprovince: 'BC' },
            { schoolname: 'Riverbend Sch.', city: 'Riverbend', stateprovince: 'MT' },
            { schoolname: 'Riverbend School', city: 'Riverbend', stateprovince: 'ID' },
            { schoolname: 'Greenvale School', city: 'Scarsdale', stateprovince: 'NY' },
            { schoolname: 'The Greenvale School', city: 'Glen Head', stateprovince: 'NY' },
            { schoolname: 'Wilmington College', city: 'Wilmington', stateprovince: 'OH' },
            { schoolname: 'College of Wilmington', city: 'Wilmington', stateprovince: 'DE' },
          ],
          async (find) => {
            const firstTwo = async (q: string) =>
              (await find(q)).slice(0, 2).map((s) => [s.schoolname, s.similarity_score]);
            expect(await firstTwo('Hillview Elementary')).toEqual([
              ['Hillview Elementary', 1],
              ['Hillview Elem.', 1],
            ]);
            expect(await firstTwo('hillview elem')).toEqual([
              ['Hillview Elem.', 1],
              ['Hillview Elementary', 1],
            ]);
            expect(await firstTwo('Hillview-Elementary')).toEqual([
              ['Hillview Elementary', 1],
              ['Hillview Elem.', 1],
            ]);
            expect(await firstTwo('riverbend school')).toEqual([
              ['Riverbend School', 1],
              ['Riverbend Sch.', 1],
            ]);
            expect(await firstTwo('the greenvale school')).toEqual([
              ['The Greenvale School', 1],
              ['Greenvale School', 1],
            ]);
            expect(await firstTwo('greenvale school')).toEqual([
              ['Greenvale School', 1],
              ['The Greenvale School', 1],
            ]);
            expect(await firstTwo('college of wilmington')).toEqual([
              ['College of Wilmington', 1],
              ['Wilmington College', 1],
            ]);
            expect(await firstTwo('wilmington college')).toEqual([
              ['Wilmington College', 1],
              ['College of Wilmington', 1],
            ]);
          },
        );
      });

      test('when a famous school and a small one are both named as typed, then prominence still decides: a distinctive part spelled as typed is the name as typed', async () => {
        await withCatalog(
          [
            { schoolname: 'Duke School', city: 'Durham', stateprovince: 'NC' },
            { schoolname: 'Duke University', city: 'Durham', stateprovince: 'NC', prominence: 90 },
          ],
          async (find) => {
            expect((await find('duke')).map((s) => s.schoolname)).toEqual(['Duke University', 'Duke School']);
          },
        );
      });

      nearTest(
        'when the query names several schools near a point, then the nearest comes first, however its directory spelled the name',
        async () => {
          await withCatalog(
            [
              {
                schoolname: 'Riverbend Sch.',
                city: 'Cambridge',
                stateprovince: 'MA',
                latitude: 42.3736,
                longitude: -71.1097,
              },
              {
                schoolname: 'Riverbend School',
                city: 'Boise',
                stateprovince: 'ID',
                latitude: 43.615,
                longitude: -116.2023,
              },
            ],
            async (find) => {
              const hits = await find('riverbend school', { near: CAMBRIDGE });
              expect(hits.map((s) => s.schoolname)).toEqual(['Riverbend Sch.', 'Riverbend School']);
            },
          );
        },
      );

      test('when a query begins with a small word and the start of a word, then the names that begin with both come first', async () => {
        await withCatalog(
          [
            { schoolname: 'Laurel Elementary', city: 'Laurel', stateprovince: 'MD', prominence: 40 },
            { schoolname: 'Laurel Academy', city: 'Laurel', stateprovince: 'MS' },
            { schoolname: 'The Academy at Laurel', city: 'Laurel', stateprovince: 'DE' },
            { schoolname: 'The Laurel School', city: 'Shaker Heights', stateprovince: 'OH' },
            { schoolname: 'De la Source', city: 'Québec', stateprovince: 'QC' },
            { schoolname: 'La Source', city: 'Montréal', stateprovince: 'QC' },
            { schoolname: 'Source Academy', city: 'Austin', stateprovince: 'TX', prominence: 40 },
            { schoolname: 'Arm River School', city: 'Lumsden', stateprovince: 'SK' },
            { schoolname: 'University of Northern Iowa', city: 'Cedar Falls', stateprovince: 'IA', aliases: ['UNI'] },
            { schoolname: 'The University of Texas at Austin', city: 'Austin', stateprovince: 'TX' },
            { schoolname: 'Academy School', city: 'Tulsa', stateprovince: 'OK' },
            { schoolname: 'The Academy', city: 'Tampa', stateprovince: 'FL' },
            { schoolname: 'The Armand Hammer United World College', city: 'Montezuma', stateprovince: 'NM' },
          ],
          async (find) => {
            const top = async (q: string) => (await find(q)).map((s) => s.schoolname);
            expect((await top('the laur'))[0]).toBe('The Laurel School');
            // The small word counts as found there, before a whole word elsewhere ("arm"), and in the score.
            expect((await find('the arm')).map((s) => [s.schoolname, s.similarity_score])).toEqual([
              ['The Armand Hammer United World College', 0.9025],
              ['Arm River School', 0.475],
            ]);
            // An acronym is named without the small word only: "the uni" is someone typing The University of…
            expect((await top('uni'))[0]).toBe('University of Northern Iowa');
            expect((await top('the uni'))[0]).toBe('The University of Texas at Austin');
            // Among the schools a query names (acad ≡ academy), the one that begins with the small word first.
            expect((await top('the acad')).slice(0, 2)).toEqual(['The Academy', 'Academy School']);
            expect((await top('acad')).slice(0, 2)).toEqual(['Academy School', 'The Academy']);
            // Without the small word, the static order as before: prominence, then the name (The
            // Academy at Laurel starts with "laur" at its campus: nameStarts).
            expect(await top('laur')).toEqual([
              'Laurel Elementary',
              'Laurel Academy',
              'The Academy at Laurel',
              'The Laurel School',
            ]);
            expect((await top('de la sour'))[0]).toBe('De la Source');
            expect((await top('la sour'))[0]).toBe('La Source');
          },
        );
      });

      test('when a name is published with its article last, then it is found, named and ranked first when typed in reading order', async () => {
        await withCatalog(
          [
            { schoolname: "Étincelle, l'", city: 'Granby', stateprovince: 'QC' },
            { schoolname: 'Étincelle', city: 'Laval', stateprovince: 'QC' },
            { schoolname: 'Sentiers-alpins, des', city: 'Sherbrooke', stateprovince: 'QC' },
            { schoolname: 'Sentiers-alpins', city: 'Magog', stateprovince: 'QC' },
            { schoolname: 'Hill Academy, The', city: 'Vaughan', stateprovince: 'ON' },
            { schoolname: 'Hill Academy', city: 'Dallas', stateprovince: 'TX' },
          ],
          async (find) => {
            const top = async (q: string) => (await find(q))[0];
            expect(await top("l'étincelle")).toMatchObject({ schoolname: "Étincelle, l'", similarity_score: 1 });
            expect(await top('des sentiers-alpins')).toMatchObject({
              schoolname: 'Sentiers-alpins, des',
              similarity_score: 1,
            });
            expect(await top('sentiers-alpins')).toMatchObject({ schoolname: 'Sentiers-alpins', similarity_score: 1 });
            expect(await top('the hill academy')).toMatchObject({
              schoolname: 'Hill Academy, The',
              similarity_score: 1,
            });
            expect(await top('hill academy')).toMatchObject({ schoolname: 'Hill Academy', similarity_score: 1 });
          },
        );
      });

      test('when more words match, then the school ranks higher, whatever its prominence', async () => {
        await withCatalog(
          [
            { schoolname: 'Maple Birch Academy', city: 'A', stateprovince: 'VT' },
            { schoolname: 'Birch Academy', city: 'B', stateprovince: 'VT' },
            { schoolname: 'Maple Cedar Academy', city: 'C', stateprovince: 'VT' },
            { schoolname: 'Maple Academy', city: 'D', stateprovince: 'VT' },
            { schoolname: 'Cedar Academy', city: 'E', stateprovince: 'VT', prominence: 100 },
          ],
          async (find) => {
            // No school has all three words. "maple" (3 schools) is left out first; "cedar" and
            // "birch" (2 each) still share none, so the later, "birch", goes too: the schools with
            // "cedar" remain, and the one that also has "maple" ranks first.
            const hits = await find('maple cedar birch');
            expect(hits.map((s) => [s.schoolname, s.similarity_score])).toEqual([
              ['Maple Cedar Academy', 0.6333],
              ['Cedar Academy', 0.3167],
            ]);
          },
        );
      });

      test("when a word matches an alternative name as well as another school's name, then the name ranks first, whatever the prominence", async () => {
        await withCatalog(
          [
            {
              schoolname: 'WPI',
              city: 'Worcester',
              stateprovince: 'MA',
              aliases: ['Worcester Polytechnic Institute'],
              prominence: 100,
            },
            { schoolname: 'Polytechnic Institute of New York', city: 'Brooklyn', stateprovince: 'NY' },
          ],
          async (find) =>
            expect((await find('polytechnic')).map((s) => s.schoolname)).toEqual([
              'Polytechnic Institute of New York',
              'WPI',
            ]),
        );
      });

      test('when matches are equally good, then the more prominent school comes first: the flagship before its namesakes', async () => {
        await withCatalog(
          [
            { schoolname: 'Purdue University Global', city: 'West Lafayette', stateprovince: 'IN', prominence: 80 },
            { schoolname: 'Purdue University Fort Wayne', city: 'Fort Wayne', stateprovince: 'IN', prominence: 54 },
            {
              schoolname: 'Purdue University-Main Campus',
              city: 'West Lafayette',
              stateprovince: 'IN',
              prominence: 100,
            },
          ],
          async (find) => {
            expect((await find('purdue university')).map((s) => s.schoolname)).toEqual([
              'Purdue University-Main Campus',
              'Purdue University Global',
              'Purdue University Fort Wayne',
            ]);
            expect((await find('purdue university', { stateCode: 'IN', limit: 1 })).map((s) => s.schoolname)).toEqual([
              'Purdue University-Main Campus',
            ]);
          },
        );
      });

      const RANKED_ACADEMY = {
        schoolname: 'Pacific Northwest Maritime Academy',
        city: 'Portland',
        stateprovince: 'OR',
        prominence: 40,
      };
      test('when a ranked school holds the query in its name and a namesake merely starts with it, then the ranked one first; a name spelled out whole, or words typed in another order, still win', async () => {
        await withCatalog(
          [
            { schoolname: 'Maritime Academy Primary School', city: 'Astoria', stateprovince: 'OR' },
            RANKED_ACADEMY,
            { schoolname: 'Academy of Maritime Studies', city: 'Salem', stateprovince: 'OR', prominence: 60 },
          ],
          async (find) => {
            // Step 4′: ranked and holding "maritime academy" beats starting with it; the ranked
            // school that holds the words in another order does not.
            expect((await find('maritime academy')).map((s) => s.schoolname)).toEqual([
              'Pacific Northwest Maritime Academy',
              'Maritime Academy Primary School',
              'Academy of Maritime Studies',
            ]);
          },
        );
        await withCatalog(
          [{ schoolname: 'Maritime Academy', city: 'Astoria', stateprovince: 'OR' }, RANKED_ACADEMY],
          async (find) => {
            // The query spells out the small school's whole name (a start of its last word): step 4 first.
            expect((await find('maritime acade')).map((s) => s.schoolname)).toEqual([
              'Maritime Academy',
              'Pacific Northwest Maritime Academy',
            ]);
          },
        );
      });

      test('when the query is the distinctive part of a name (after "University of", or a campus), then it names that school too and prominence decides', async () => {
        await withCatalog(
          [
            { schoolname: 'Notre Dame College', city: 'Cleveland', stateprovince: 'OH', prominence: 46 },
            { schoolname: 'Notre Dame High School', city: 'Sherman Oaks', stateprovince: 'CA' },
            { schoolname: 'Notre-Dame', city: 'Québec', stateprovince: 'QC' },
            { schoolname: 'University of Notre Dame', city: 'Notre Dame', stateprovince: 'IN', prominence: 94 },
            { schoolname: 'Berkeley College', city: 'New York', stateprovince: 'NY', prominence: 48 },
            { schoolname: 'University of California-Berkeley', city: 'Berkeley', stateprovince: 'CA', prominence: 100 },
            { schoolname: 'The University of Texas at Austin', city: 'Austin', stateprovince: 'TX', prominence: 100 },
            { schoolname: 'Austin College', city: 'Sherman', stateprovince: 'TX', prominence: 56 },
            { schoolname: 'Abraham Lincoln Berkeley Academy', city: 'Oakland', stateprovince: 'CA', prominence: 99 },
          ],
          async (find) => {
            const order = async (q: string) => (await find(q)).map((s) => s.schoolname);
            // A ranked school's name without its generic words is its name: the query names three
            // schools, and prominence says which one is meant, before a school that only starts so.
            expect(await order('notre dame')).toEqual([
              'University of Notre Dame',
              'Notre Dame College',
              'Notre-Dame',
              'Notre Dame High School',
            ]);
            expect((await find('notre dame')).map((s) => s.similarity_score)).toEqual([1, 1, 1, 0.95]);
            // Still a better match first: the name that is typed from its first word, whole.
            expect((await order('notre dame college'))[0]).toBe('Notre Dame College');
            // A word in the middle of a name is no start: the Academy comes after both.
            expect(await order('berkeley')).toEqual([
              'University of California-Berkeley',
              'Berkeley College',
              'Abraham Lincoln Berkeley Academy',
            ]);
            expect((await order('austin'))[0]).toBe('The University of Texas at Austin');
          },
        );
      });

      test('when a query ends with a small word, then it is still being typed and names no school', async () => {
        await withCatalog(
          [
            { schoolname: 'American University', city: 'Washington', stateprovince: 'DC', prominence: 90 },
            { schoolname: 'American Leadership Academy', city: 'Mesa', stateprovince: 'AZ' },
          ],
          async (find) => {
            // "le" is a small word: the key of "american le" would be "american", American University's name.
            expect((await find('american le')).map((s) => s.schoolname)).toEqual(['American Leadership Academy']);
            expect((await find('american'))[0]).toMatchObject({
              schoolname: 'American University',
              similarity_score: 1,
            });
          },
        );
      });

      test('when prominence ties, then the name decides, then the id', async () => {
        const local = await startTestApp({ engine: target.engine });
        try {
          const drafts = await local.seed([
            { schoolname: 'Twin Peaks College', city: 'Alpha', stateprovince: 'WA' },
            { schoolname: 'Twin Peaks College', city: 'Beta', stateprovince: 'WA' },
            { schoolname: 'Twin College', city: 'Gamma', stateprovince: 'WA' },
          ]);
          const user = await local.userClient();
          const r = await fetchSchoolSearch({ client: user.client, query: { query: 'twin' } });
          const twins = drafts
            .filter((d) => d.name === 'Twin Peaks College')
            .map((d) => d.id)
            .sort();
          expect(r.data!.requestresult.schools.map((s) => s.schoolid)).toEqual([drafts[2]!.id, ...twins]);
        } finally {
          await local.close();
        }
      });

      test('when stateCode is given, then only schools of that state match', async () => {
        expect(await names('lincoln', { stateCode: 'TN' })).toEqual(['Lincoln Memorial University']);
        // Any case: users type `tn`.
        expect(await names('lincoln', { stateCode: 'tn' })).toEqual(['Lincoln Memorial University']);
        expect(await names('lincoln', { stateCode: 'Tn' })).toEqual(['Lincoln Memorial University']);
        expect(await names('university', { stateCode: 'ON' })).toEqual(['University of Toronto', "Queen's University"]);
      });
    });

    describe('fetchSchoolSearch: 7. similarity_score', () => {
      test('when the query is the whole name, then the score is 1; a word of it 0.95; a prefix less; an alternative name 0.97', async () => {
        expect((await first('harvard university'))?.similarity_score).toBe(1);
        // A ranked school's name without its generic words is its name too (docs/search.md).
        expect((await first('harvard'))?.similarity_score).toBe(1);
        expect((await first('lincoln'))?.similarity_score).toBe(0.95);
        expect((await first('harv'))?.similarity_score).toBe(0.76);
        expect((await first('mit'))?.similarity_score).toBe(0.97);
      });

      test('when results come in order, then scores are in [0, 1] and never increase', async () => {
        for (const query of [
          'university',
          'ecole montreal',
          'lincoln u',
          'college toronto',
          'saint mary college',
          'harvard zebra',
          'paging',
        ]) {
          const r = await search({ query, limit: 25 });
          const scores = r.data!.requestresult.schools.map((s) => s.similarity_score);
          for (const [i, score] of scores.entries()) {
            expect(score).toBeGreaterThanOrEqual(0);
            expect(score).toBeLessThanOrEqual(1);
            if (i > 0) expect(score, query).toBeLessThanOrEqual(scores[i - 1]!);
          }
        }
      });

      test('when a school has a logo, then image_url is it; otherwise a monogram this API serves', async () => {
        const r = await search({ query: 'university' });
        const schools = r.data!.requestresult.schools;
        expect(schools.find((s) => s.schoolname === 'University of Toronto')!.image_url).toBe(
          'https://logos.example.org/uoft.png',
        );
        const harvard = schools.find((s) => s.schoolname === 'Harvard University')!;
        expect(harvard.image_url).toBe(`http://images.test/images/schools/${harvard.schoolid}.svg`);
      });

      test('when the directory gave a school an address, postal code and coordinates, then the result has them; otherwise it has none of the four', async () => {
        const [laval] = (await search({ query: 'université laval' })).data!.requestresult.schools;
        expect(laval).toMatchObject({
          schoolname: 'Université Laval',
          address: '2325, rue de l’Université',
          postal_code: 'G1V 0A6',
          latitude: 46.7817,
          longitude: -71.2748,
        });
        const [harvard] = (await search({ query: 'harvard' })).data!.requestresult.schools;
        expect(harvard!.schoolname).toBe('Harvard University');
        for (const key of ['address', 'postal_code', 'latitude', 'longitude']) expect(harvard).not.toHaveProperty(key);
      });

      test.each([
        '"',
        '""',
        "'",
        '*',
        '"harvard" OR 1=1',
        'NEAR(harvard university)',
        'harvard*',
        '-harvard',
        'harvard -university',
        '$ne',
        '{"$ne": null}',
        '.*',
        '^(a+)+$',
        '[a-z]',
        '\\',
        '%',
        '_',
        'AND',
        'OR NOT',
        'a:b',
        'name:harvard',
        '^harvard',
        'harvard\u0000',
        '\u202e',
        '😀 harvard',
        'x'.repeat(200),
        'the of and de la',
        'a'.repeat(200),
        'a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp',
        'university college school academy institute community technical saint mary high elementary',
      ])('when the query is hostile (%s), then the answer is a normal 200', async (query) => {
        const r = await search({ query });
        expect(r.response!.status).toBe(200);
        zFetchSchoolSearchResponse.parse(r.data);
      });
    });

    describe('fetchSchoolSearch: 8. totals and paging', () => {
      test('when results tie, then order is by name, then id, and total_count is the same in every element', async () => {
        const r = await search({ query: 'paging', limit: 25 });
        const { schools, total_count } = r.data!.requestresult;
        expect(total_count).toBe(60);
        for (const s of schools) expect(s.total_count).toBe(60);
        expect(schools.slice(0, 3).map((s) => s.schoolname)).toEqual([
          'Paging Academy A',
          'Paging Academy Ax',
          'Paging Academy Axy',
        ]);
        expect(new Set(schools.map((s) => s.similarity_score))).toEqual(new Set([0.95]));
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

      test('when limit is not given, then it is 25', async () => {
        const r = await search({ query: 'paging' });
        expect(r.data!.requestresult.limit).toBe(25);
        expect(r.data!.requestresult.schools).toHaveLength(25);
      });
    });

    describe('fetchSchoolSearch: 9. catalog changes', () => {
      test('when schools are imported or renamed, then the next search finds them and the total counts them', async () => {
        const local = await startTestApp({ engine: target.engine });
        try {
          const many = (n: number, from = 0) =>
            Array.from({ length: n }, (_, i) => ({
              schoolname: `Counted College ${from + i}`,
              city: 'Ames',
              stateprovince: 'IA',
            }));
          await local.seed(many(30));
          const user = await local.userClient();
          const total = async (query: string) =>
            (await fetchSchoolSearch({ client: user.client, query: { query, limit: 10 } })).data!.requestresult
              .total_count;
          expect(await total('counted')).toBe(30);
          await local.seed(many(5, 30));
          expect(await total('counted')).toBe(35);
          await local.seed([
            {
              schoolname: 'Renamed Institute',
              city: 'Ames',
              stateprovince: 'IA',
              schoolid: (await local.seed(many(1)))[0]!.id,
            },
          ]);
          expect(await total('counted')).toBe(34);
          expect(await total('renamed')).toBe(1);
        } finally {
          await local.close();
        }
      });
    });

    describe('fetchSchoolSearch: 10. level and type filters', () => {
      type Placed = (typeof PLACED)[number];
      const charter = (s: Placed) => s.tags?.includes('charter') ?? false;
      filterTest.each([
        ['one level', { level: ['elementary'] }, (s: Placed) => s.level === 'elementary'],
        ['several levels', { level: ['middle', 'high'] }, (s: Placed) => s.level === 'middle' || s.level === 'high'],
        ['type public (charter schools are public too)', { type: ['public'] }, (s: Placed) => s.type === 'public'],
        ['type private', { type: ['private'] }, (s: Placed) => s.type === 'private'],
        ['type postsecondary', { type: ['postsecondary'] }, (s: Placed) => s.type === 'postsecondary'],
        ['type charter (a school tagged charter)', { type: ['charter'] }, charter],
        ['several types', { type: ['private', 'charter'] }, (s: Placed) => s.type === 'private' || charter(s)],
        [
          'a level and a type',
          { level: ['elementary'], type: ['private'] },
          (s: Placed) => s.level === 'elementary' && s.type === 'private',
        ],
        [
          'a level, a type and a stateCode',
          { level: ['elementary', 'middle'], type: ['public'], stateCode: 'MA' },
          (s: Placed) =>
            (s.level === 'elementary' || s.level === 'middle') && s.type === 'public' && s.stateprovince === 'MA',
        ],
      ] as const)(
        'when the search asks for %s, then every school found is of it and total_count counts exactly them',
        async (_what, filters, keeps) => {
          const found = await placedFind('lincoln', filters);
          const expected = LINCOLNS.filter(keeps);
          expect(found.schools.map(where).sort()).toEqual(expected.map(where).sort());
          expect(found.total_count).toBe(expected.length);
          for (const school of found.schools) {
            expect(school.total_count).toBe(expected.length);
            if ('level' in filters) expect(filters.level).toContain(school.level);
            if ('type' in filters)
              expect(
                filters.type.some((t) => (t === 'charter' ? school.tags?.includes('charter') : school.type === t)),
              ).toBe(true);
          }
        },
      );

      filterTest(
        'when a filter comes with words, then the words still decide the order among the schools it keeps',
        async () => {
          const found = await placedFind('lincoln elementary', { type: ['public'] });
          // A whole word before the start of a word (Lincolnshire), whatever the filter; namesakes
          // tie, and their ids decide.
          expect(found.schools.slice(0, 4).map(where).sort()).toEqual([
            'Lincoln Elementary School, Brookline',
            'Lincoln Elementary School, Cambridge',
            'Lincoln Elementary School, Omaha',
            'Lincoln Elementary School, Springfield',
          ]);
          expect(found.schools.slice(4).map(where)).toEqual(['Lincolnshire Elementary School, Cambridge']);
        },
      );

      filterTest("when a school's level and type are unknown, then no level and no type keeps it", async () => {
        const everyLevel = await placedFind('lincoln', {
          level: ['elementary', 'middle', 'high', 'other', 'postsecondary'],
        });
        const everyType = await placedFind('lincoln', { type: ['public', 'private', 'charter', 'postsecondary'] });
        for (const found of [everyLevel, everyType]) {
          expect(found.total_count).toBe(LINCOLNS.length - 1);
          expect(found.schools.map((s) => s.schoolname)).not.toContain('Lincoln Learning Center');
        }
        expect((await placedFind('lincoln')).total_count).toBe(LINCOLNS.length);
      });

      filterTest('when no school matching the words is of the type asked, then 200 with nothing found', async () => {
        expect(await placedFind('cambridge rindge', { type: ['postsecondary'] })).toEqual({
          schools: [],
          total_count: 0,
          offset: 0,
          limit: 25,
        });
      });
    });

    describe('fetchSchoolSearch: 11. near me', () => {
      nearTest(
        'when namesakes are found near a point, then the nearest comes first, those without coordinates last, each with its distance_km',
        async () => {
          const found = await placedFind('lincoln elementary school', { near: CAMBRIDGE });
          expect(found.schools.slice(0, 6).map((s) => [s.city, s.distance_km, s.similarity_score])).toEqual([
            ['Cambridge', 0.739, 1],
            ['Boston', 4.435, 1],
            ['Brookline', 4.743, 1],
            ['Omaha', 2053.753, 1],
            ['Denver', 2836.984, 1],
            ['Springfield', undefined, 1],
          ]);
          expect(found.schools[5]).not.toHaveProperty('distance_km');
          // Nearer than all of them, and after them: its name is not the query.
          expect(where(found.schools[6]!)).toBe('Lincolnshire Elementary School, Cambridge');
          expect(found.schools[6]!.distance_km).toBe(0);
        },
      );

      nearTest(
        'when a closer school matches the words less well, then every better match comes first, near or far',
        async () => {
          const found = await placedFind('lincoln elementary', { near: CAMBRIDGE });
          // A start of a word (Lincolnshire, 0 km away) below whole words, even against a school
          // whose place is unknown.
          expect(found.schools.map(where)).toEqual([
            'Lincoln Elementary School, Cambridge',
            'Lincoln Elementary School, Boston',
            'Lincoln Elementary School, Brookline',
            'Lincoln Elementary School, Omaha',
            'Lincoln Elementary School, Denver',
            'Lincoln Elementary School, Springfield',
            'Lincolnshire Elementary School, Cambridge',
          ]);
        },
      );

      nearTest('when the point is elsewhere, then the order follows it', async () => {
        const found = await placedFind('lincoln high school', { near: '45.5152,-122.6784' });
        expect(found.schools.slice(0, 2).map((s) => [s.city, s.distance_km])).toEqual([
          ['Portland', 0],
          ['Boston', 4076.068],
        ]);
      });

      nearTest('when there is no near, then no school has distance_km', async () => {
        const found = await placedFind('lincoln elementary school');
        expect(found.schools).toHaveLength(7);
        for (const school of found.schools) expect(school).not.toHaveProperty('distance_km');
      });

      nearTest('when paging near a point, then the pages join into the whole list with no repeat or gap', async () => {
        const whole = (await placedFind('lincoln', { near: CAMBRIDGE })).schools.map((s) => s.schoolid);
        const pages: string[] = [];
        for (let offset = 0; offset < whole.length; offset += 4)
          pages.push(
            ...(await placedFind('lincoln', { near: CAMBRIDGE, offset, limit: 4 })).schools.map((s) => s.schoolid),
          );
        expect(pages).toEqual(whole);
        expect(whole).toHaveLength(LINCOLNS.length);
      });
    });

    describe('fetchSchoolSearch: 12. radius_km', () => {
      radiusTest(
        'when radius_km is given, then only schools within it are found, each with distance_km at most it, and total_count counts them',
        async () => {
          const found = await placedFind('lincoln', { near: CAMBRIDGE, radius_km: 10 });
          expect(found.schools.map(where).sort()).toEqual(
            [
              'Lincoln Elementary School, Boston',
              'Lincoln Elementary School, Brookline',
              'Lincoln Elementary School, Cambridge',
              'Lincoln High School, Boston',
              'Lincoln Learning Center, Cambridge',
              'Lincoln Middle School, Cambridge',
              'Lincolnshire Elementary School, Cambridge',
            ].sort(),
          );
          expect(found.total_count).toBe(7);
          for (const school of found.schools) expect(school.distance_km).toBeLessThanOrEqual(10);
        },
      );

      radiusTest('when radius_km comes with a level, then both keep', async () => {
        const found = await placedFind('lincoln', { near: CAMBRIDGE, radius_km: 10, level: ['elementary'] });
        expect(found.schools.map(where)).toEqual([
          'Lincoln Elementary School, Cambridge',
          'Lincoln Elementary School, Boston',
          'Lincoln Elementary School, Brookline',
          'Lincolnshire Elementary School, Cambridge',
        ]);
        expect(found.total_count).toBe(4);
      });

      radiusTest(
        'when radius_km is the largest, then every school with coordinates is within it, and none without',
        async () => {
          const found = await placedFind('lincoln', { near: CAMBRIDGE, radius_km: 20015 });
          expect(found.total_count).toBe(LINCOLNS.filter((s) => s.latitude !== undefined).length);
          expect(found.schools.map(where)).not.toContain('Lincoln Elementary School, Springfield');
          expect(found.schools.map(where)).not.toContain('Lincoln College of Technology, Denver');
        },
      );

      radiusTest(
        'when a school is exactly radius_km away (in metres, as distance_km shows), then it is within',
        async () => {
          const at = await placedFind('lincoln elementary school', { near: CAMBRIDGE, radius_km: 4.435 });
          expect(at.schools.map(where)).toEqual([
            'Lincoln Elementary School, Cambridge',
            'Lincoln Elementary School, Boston',
            'Lincolnshire Elementary School, Cambridge',
          ]);
          const short = await placedFind('lincoln elementary school', { near: CAMBRIDGE, radius_km: 4.4349 });
          expect(short.schools.map(where)).toEqual([
            'Lincoln Elementary School, Cambridge',
            'Lincolnshire Elementary School, Cambridge',
          ]);
        },
      );
    });

    describe('fetchSchoolSearch: bad level, type, near and radius_km', () => {
      test.each([
        ['near that is not a point', { query: 'a', near: 'abc' }, 'near'],
        ['near with three numbers', { query: 'a', near: '1,2,3' }, 'near'],
        ['near with a latitude past 90', { query: 'a', near: '91,0' }, 'near'],
        ['near with a longitude past 180', { query: 'a', near: '0,181' }, 'near'],
        ['radius_km 0', { query: 'a', near: CAMBRIDGE, radius_km: 0 }, 'radius_km'],
        ['a negative radius_km', { query: 'a', near: CAMBRIDGE, radius_km: -5 }, 'radius_km'],
        ['radius_km past half the Earth', { query: 'a', near: CAMBRIDGE, radius_km: 20016 }, 'radius_km'],
        ['radius_km without near', { query: 'a', radius_km: 10 }, 'radius_km'],
        ['an unknown level', { query: 'a', level: ['college'] }, 'level'],
        ['an unknown type', { query: 'a', type: ['charterschool'] }, 'type'],
        ['an empty query with near (a point is no search)', { query: '', near: CAMBRIDGE }, 'query'],
        ['no query, only near', { near: CAMBRIDGE }, 'query'],
      ])('when the request has %s, then 400 names the parameter', async (_what, query, name) => {
        const r = await search(query);
        const problem = expectProblem(r, 400, 'validation-error');
        expect(problem.errors?.some((e) => e.location === 'query' && e.name.startsWith(name))).toBe(true);
      });
    });

    describe('fetchSchoolSearch: metering', () => {
      test('when a search answers, then its record is already in the caller history', async () => {
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
        ['an unknown state code', { query: 'a', stateCode: 'XX' }, 'stateCode'],
        ['an unknown parameter', { query: 'a', sort: 'name' }, 'sort'],
        ['an operator object', { 'query[$ne]': 'x' }, 'query'],
      ])('when the request has %s, then 400 names the parameter', async (_what, query, name) => {
        const r = await search(query);
        const problem = expectProblem(r, 400, 'validation-error');
        expect(problem.errors?.some((e) => e.location === 'query' && e.name.startsWith(name))).toBe(true);
      });

      test('when several parameters are wrong, then every one is listed', async () => {
        const r = await search({ query: 'a', limit: 99, offset: -1, stateCode: 'xx' });
        const problem = expectProblem(r, 400, 'validation-error');
        expect(new Set(problem.errors!.map((e) => e.name))).toEqual(new Set(['limit', 'offset', 'stateCode']));
      });

      test('when the state code is unknown, then the answer says so in one short line', async () => {
        const r = await search({ query: 'a', stateCode: 'XX' });
        const problem = expectProblem(r, 400, 'validation-error');
        expect(problem.errors).toEqual([
          {
            location: 'query',
            name: 'stateCode',
            message: 'is not a US or Canadian state, province or territory code (two letters, e.g. TX or on)',
          },
        ]);
        expect(problem.detail!.length).toBeLessThan(140);
      });

      test('when there is no token, then 401', async () => {
        const r = await fetchSchoolSearch({ client: app.client(), query: { query: 'harvard' } });
        expectProblem(r, 401, 'unauthorized');
      });
    });

    describe('fetchSchoolSearch: store failures', () => {
      test('when the store is unavailable, then 503 with Retry-After and nothing metered', async () => {
        const user = await app.userClient();
        const engine = app.services.engine;
        const original = engine.search.bind(engine);
        // A search never asked before: one asked before is answered again without the engine (src/domain/search/kept-answers.ts).
        engine.search = async () => {
          throw new StoreUnavailableError();
        };
        try {
          const r = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard, never asked before' } });
          expectProblem(r, 503, 'service-unavailable');
          expect(r.response!.headers.get('retry-after')).toBe('5');
        } finally {
          engine.search = original;
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
  });
}
