// The README's ten lines, as a user would write them after `npm install school-search-client`.
import { SchoolSearchClient } from 'school-search-client';
const { BASE_URL, EMAIL, PASSWORD } = process.env;
const api = new SchoolSearchClient({ baseUrl: BASE_URL, email: EMAIL, password: PASSWORD });
const harvard = await api.searchSchools({ query: 'harvard' });
const yale = await api.searchSchools({
  query: 'yale',
  stateCode: 'CT',
  level: 'postsecondary',
  near: { latitude: 41.3163, longitude: -72.9223 },
  limit: 5,
});
const record = await api.getSchool(harvard.requestresult.schools[0].schoolid); // not metered
const sessions = (await api.listTokens()).tokens.filter((t) => t.kind === 'session').length;
const history = (await api.fetchMyRequests()).requests.length;
console.log(
  JSON.stringify({
    node: process.version,
    top: harvard.requestresult.schools[0]?.schoolname,
    yale: yale.requestresult.total_count,
    record: record.source_ids,
    sessions,
    history,
  }),
);
process.exitCode =
  harvard.requestresult.schools[0]?.schoolname === 'Harvard University' &&
  yale.requestresult.total_count > 0 &&
  record.schoolname === 'Harvard University' &&
  sessions === 1 &&
  history === 2
    ? 0
    : 1;
