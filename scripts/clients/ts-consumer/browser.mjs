// In a web page: the package bundled for browsers (no Node built-ins), calling the API from another origin.
import { SchoolSearchClient } from 'school-search-client';
const { baseUrl, email, password } = JSON.parse(document.getElementById('consumer').textContent);
const api = new SchoolSearchClient({ baseUrl, email, password });
window.result = api.searchSchools({ query: 'harvard' }).then(
  (page) => page.requestresult.schools[0]?.schoolname,
  (error) => `error: ${error}`,
);
