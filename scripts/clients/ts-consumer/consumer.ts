// Type-checked against the installed package's declarations (tsc --noEmit), not run.
import { SchoolSearchClient, SchoolSearchApiError, type School, type SchoolSearchResponse } from 'school-search-client';

const api = new SchoolSearchClient({ baseUrl: 'http://localhost:3000', apiKey: 'ssk_example' });
const page: SchoolSearchResponse = await api.searchSchools({ query: 'harvard', stateCode: 'MA' });
const names: string[] = page.requestresult.schools.map((school: School) => school.schoolname);
const scores: number[] = page.requestresult.schools.map((school) => school.similarity_score);
for await (const school of api.searchAll({ query: 'lincoln' })) names.push(school.schoolname);
const failure: unknown = new Error();
if (failure instanceof SchoolSearchApiError) scores.push(failure.status);
// @ts-expect-error stateCode is a closed set of codes
await api.searchSchools({ query: 'x', stateCode: 'XX' });
