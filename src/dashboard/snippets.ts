// The copy-paste snippets for a publishable key: the picker in a page, the search from a terminal
// (curl, with the Origin a browser would send), and the TypeScript and Python clients. The
// clients take it as `publishableKey` / `publishable_key` (sent as `?key=`, so a page's search
// needs no preflight); a publishable key answers only requests from one of its origins, so the
// Python one names that origin itself, as a browser would.
// No zod here: the try-it frame's bundle imports this file, and has no zod-setup.ts.

export interface PickerOptions {
  readonly stateCode?: string | undefined;
  readonly level?: string | undefined;
  readonly type?: string | undefined;
  readonly near?: string | undefined;
  readonly placeholder?: string | undefined;
}

export interface SnippetInput {
  /** Where the API is (this dashboard's origin). */
  readonly api: string;
  /** The key's value, or a placeholder when this tab does not know it. */
  readonly key: string;
  /** The key's first origin, which the curl and Python snippets send as Origin. */
  readonly origin: string;
  readonly picker: PickerOptions;
}

/** An origin a request could come from, for a snippet: a wildcard's subdomain made concrete. */
export function sampleOrigin(pattern: string): string {
  return pattern.replace('://*.', '://www.');
}

export const PICKER_PATH = '/picker/v1/school-picker.js';

/** The picker element's attributes, in the order the snippet writes them. */
export function pickerAttributes(input: SnippetInput): Array<[string, string]> {
  const { picker } = input;
  const attributes: Array<[string, string]> = [
    ['api', input.api],
    ['key', input.key],
  ];
  if (picker.stateCode) attributes.push(['state-code', picker.stateCode]);
  if (picker.level) attributes.push(['level', picker.level]);
  if (picker.type) attributes.push(['type', picker.type]);
  if (picker.near) attributes.push(['near', picker.near]);
  attributes.push(['placeholder', picker.placeholder || 'Find your school']);
  return attributes;
}

const attribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

export function htmlSnippet(input: SnippetInput): string {
  const attributes = pickerAttributes(input)
    .map(([name, value]) => `\n  ${name}="${attribute(value)}"`)
    .join('');
  return [
    `<script type="module" src="${attribute(input.api + PICKER_PATH)}"></script>`,
    '',
    `<school-picker${attributes}>`,
    '</school-picker>',
    '',
    '<script type="module">',
    "  document.querySelector('school-picker').addEventListener('school-select', (event) => {",
    '    const { id, school } = event.detail;',
    '    console.log(id, school.schoolname, school.city);',
    '  });',
    '</script>',
  ].join('\n');
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

export function curlSnippet(input: SnippetInput): string {
  const query = new URLSearchParams({ query: 'lincoln' });
  if (input.picker.stateCode) query.set('stateCode', input.picker.stateCode);
  if (input.picker.level) query.set('level', input.picker.level);
  if (input.picker.type) query.set('type', input.picker.type);
  if (input.picker.near) query.set('near', input.picker.near);
  query.set('key', input.key);
  return [
    `curl ${shellQuote(`${input.api}/v1/fetchSchoolSearch?${query}`)} \\`,
    `  -H ${shellQuote(`Origin: ${sampleOrigin(input.origin)}`)}`,
  ].join('\n');
}

export function typescriptSnippet(input: SnippetInput): string {
  const filters = [
    "query: 'lincoln'",
    input.picker.stateCode ? `stateCode: '${input.picker.stateCode}'` : '',
    input.picker.level ? `level: '${input.picker.level}'` : '',
    input.picker.type ? `type: '${input.picker.type}'` : '',
    input.picker.near ? `near: '${input.picker.near}'` : '',
  ].filter(Boolean);
  return [
    '// In a page of one of the key’s origins (the browser sends its Origin).',
    "import { SchoolSearchClient } from 'school-search-client';",
    '',
    `const api = new SchoolSearchClient({ baseUrl: '${input.api}', publishableKey: '${input.key}' });`,
    `const page = await api.searchSchools({ ${filters.join(', ')} });`,
    'for (const school of page.requestresult.schools) console.log(school.schoolname, school.city);',
  ].join('\n');
}

export function pythonSnippet(input: SnippetInput): string {
  const filters = [
    '"lincoln"',
    input.picker.stateCode ? `state_code="${input.picker.stateCode}"` : '',
    input.picker.level ? `level="${input.picker.level}"` : '',
    input.picker.type ? `type="${input.picker.type}"` : '',
    input.picker.near ? `near="${input.picker.near}"` : '',
  ].filter(Boolean);
  return [
    '# A publishable key answers requests from its origins only: a program names one, as a browser',
    '# would. For a program of your own, a secret key (ssk_…) needs no Origin.',
    'from school_search_client import SchoolSearchClient',
    '',
    'with SchoolSearchClient(',
    `    "${input.api}",`,
    `    publishable_key="${input.key}",`,
    `    httpx_args={"headers": {"Origin": "${sampleOrigin(input.origin)}"}},`,
    ') as api:',
    `    page = api.search(${filters.join(', ')})`,
    '    for school in page.requestresult.schools:',
    '        print(school.schoolname, school.city)',
  ].join('\n');
}
