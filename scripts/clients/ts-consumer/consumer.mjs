// The README's ten lines, as a user would write them after `npm install school-search-client`.
import { SchoolSearchClient } from 'school-search-client';
const { BASE_URL, EMAIL, PASSWORD } = process.env;
const api = new SchoolSearchClient({ baseUrl: BASE_URL, email: EMAIL, password: PASSWORD });
const harvard = await api.searchSchools({ query: 'harvard' });
const yale = await api.searchSchools({ query: 'yale', stateCode: 'CT', limit: 5 });
const sessions = (await api.listTokens()).tokens.filter((t) => t.kind === 'session').length;
const history = (await api.fetchMyRequests()).requests.length;
console.log(
  JSON.stringify({
    node: process.version,
    top: harvard.requestresult.schools[0]?.schoolname,
    yale: yale.requestresult.total_count,
    sessions,
    history,
  }),
);
process.exitCode =
  harvard.requestresult.schools[0]?.schoolname === 'Harvard University' &&
  yale.requestresult.total_count > 0 &&
  sessions === 1 &&
  history === 2
    ? 0
    : 1;
