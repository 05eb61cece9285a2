// Type-checked against the installed package's declarations (tsc --noEmit), not run.
import {
  SchoolSearchClient,
  SchoolSearchApiError,
  type GeoPoint,
  type School,
  type SchoolRecord,
  type SchoolSearchResponse,
} from 'school-search-client';

const api = new SchoolSearchClient({ baseUrl: 'http://localhost:3000', apiKey: 'ssk_example' });
const page: SchoolSearchResponse = await api.searchSchools({ query: 'harvard', stateCode: 'MA' });
const names: string[] = page.requestresult.schools.map((school: School) => school.schoolname);
const scores: number[] = page.requestresult.schools.map((school) => school.similarity_score);
for await (const school of api.searchAll({ query: 'lincoln' })) names.push(school.schoolname);
const here: GeoPoint = { latitude: 40.8136, longitude: -96.7026 };
const near = await api.searchSchools({
  query: 'lincoln',
  level: ['middle', 'high'],
  type: 'charter',
  near: here,
  radiusKm: 50,
});
const distances: Array<number | undefined> = near.requestresult.schools.map((school) => school.distance_km);
for await (const school of api.searchAll({ query: 'lincoln', level: 'high', near: '40.8136,-96.7026' }))
  distances.push(school.distance_km);
const record: SchoolRecord = await api.getSchool(near.requestresult.schools[0]!.schoolid);
names.push(...record.aliases, ...record.source_ids, record.updated_at);
const failure: unknown = new Error();
if (failure instanceof SchoolSearchApiError) scores.push(failure.status);
// @ts-expect-error stateCode is a closed set of codes
await api.searchSchools({ query: 'x', stateCode: 'XX' });
// @ts-expect-error level is a closed set too
await api.searchSchools({ query: 'x', level: 'college' });
// @ts-expect-error a point has a latitude and a longitude
await api.searchSchools({ query: 'x', near: { lat: 1, lon: 2 } });

// The calls without a token (sign-up, invitations, reset): SchoolSearchAccounts.
import { SchoolSearchAccounts, type MailAccepted, type SignUpOptions, type Token } from 'school-search-client';
const accounts = new SchoolSearchAccounts({ baseUrl: 'http://localhost:3000' });
const offered: SignUpOptions = await accounts.signUpOptions();
const accepted: MailAccepted = await accounts.signUp({ email: 'ada@example.org', password: 'a-long-passphrase' });
const issued: Token = await accounts.confirmSignUp({ token: 'ssl_x', password: 'a-long-passphrase' });
await accounts.resetPassword({ token: 'ssl_x', newPassword: 'another-passphrase' });
names.push(offered.signup, accepted.status, issued.token);
// @ts-expect-error the new password is `newPassword`, as the client's other parameters are camelCase
await accounts.resetPassword({ token: 'ssl_x', new_password: 'x' });

// A page's client holds a publishable key only; the owner's client makes and re-scopes it.
import { SchoolSearchValidationError, type ApiKey, type DailyUsage, type TokenInfo } from 'school-search-client';
const owned: ApiKey = await api.createPublishableKey({ name: 'page', origins: ['https://www.example.org'] });
const rescoped: TokenInfo = await api.updateApiKey(owned.token_id, { origins: ['https://*.example.org'] });
const usage: DailyUsage = await api.fetchMyUsage({ days: 7, keyId: owned.token_id });
names.push(rescoped.key_type ?? 'session', ...usage.by_origin.map((o) => o.origin ?? 'none'));
const pageClient = new SchoolSearchClient({
  baseUrl: 'http://localhost:3000',
  publishableKey: owned.token,
  publishableKeyIn: 'query',
});
await pageClient.searchSchools({ query: 'harv', limit: 8 });
if (failure instanceof SchoolSearchValidationError) names.push(...failure.errors.map((e) => `${e.name} ${e.message}`));
// @ts-expect-error a publishable key is the only credential
new SchoolSearchClient({ baseUrl: 'http://localhost:3000', publishableKey: 'spk_x', apiKey: 'ssk_y' });
