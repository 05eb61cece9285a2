// In a web page: the package bundled for browsers (no Node built-ins), calling the API from another origin.
// First as a page does with a publishable key (made here with the password, for this page's own
// origin): a search and a school record with `key=spk_…`, simple CORS requests that need no
// preflight; then as a program does, with e-mail and password (Authorization: a preflight).
import { SchoolSearchClient } from 'school-search-client';
const { baseUrl, email, password } = JSON.parse(document.getElementById('consumer').textContent);
const api = new SchoolSearchClient({ baseUrl, email, password });
window.page = (async () => {
  const { token } = await api.createPublishableKey({ name: 'browser page', origins: [location.origin] });
  const page = new SchoolSearchClient({ baseUrl, publishableKey: token });
  const found = await page.searchSchools({ query: 'harvard' });
  const record = await page.getSchool(found.requestresult.schools[0].schoolid);
  const refused = await page.fetchMyData().then(
    () => 'allowed',
    (error) => error.type,
  );
  return { top: record.schoolname, refused };
})().catch((error) => ({ error: String(error) }));
// Started by the test once it has counted the preflights of the key's calls, not before.
window.bearerSearch = () =>
  api.searchSchools({ query: 'harvard' }).then(
    (page) => page.requestresult.schools[0]?.schoolname,
    (error) => `error: ${error}`,
  );
