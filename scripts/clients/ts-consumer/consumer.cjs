// The same from CommonJS: require() of the ES module package (Node >= 20.19, 22.12).
const { SchoolSearchClient, SchoolSearchApiError } = require('school-search-client');
const { BASE_URL, EMAIL, PASSWORD } = process.env;
(async () => {
  const me = await new SchoolSearchClient({ baseUrl: BASE_URL, email: EMAIL, password: PASSWORD }).fetchMyData();
  const wrong = new SchoolSearchClient({ baseUrl: BASE_URL, email: EMAIL, password: `${PASSWORD}-wrong` });
  const refused = await wrong.fetchMyData().catch((error) => error);
  const problem = refused instanceof SchoolSearchApiError ? `${refused.status} ${refused.type}` : String(refused);
  console.log(JSON.stringify({ node: process.version, email: me.email, problem }));
  process.exitCode = me.email === EMAIL && problem === '401 /problems/invalid-credentials' ? 0 : 1;
})();
