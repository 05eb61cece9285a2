// The search playground: a search as the API answers it (the raw JSON) and the request record it
// made, with this session's token. It is metered like any search, and lands in the history.
import { fetchSchoolSearch } from '../../../generated/sdk.gen.ts';
import type { SchoolLevel, SchoolTypeFilter } from '../../../generated/types.gen.ts';
import { client, explain, ok } from '../api.ts';
import { field, h, onSubmit, show } from '../dom.ts';
import { filterInputs } from './picker-options.ts';

export function playground(): HTMLElement {
  const query = h('input', { id: 'play-query', type: 'search', required: true, autocomplete: 'off', value: 'lincoln' });
  const filters = filterInputs('play');
  const submit = h('button', { type: 'submit' }, 'Search');
  const error = h('p', { class: 'error', role: 'alert' });
  const answer = h('div', { id: 'play-answer' });
  const form = h(
    'form',
    { method: 'get', class: 'inline', 'aria-labelledby': 'play-title' },
    h('h2', { id: 'play-title' }, 'Search playground'),
    h(
      'p',
      { class: 'hint wide' },
      'A search with this session (metered like any other, and listed in your history): the answer as the API sends it.',
    ),
    field('Query', query),
    ...filters.fields,
    submit,
    error,
  );
  onSubmit(
    form,
    { submit, error },
    async () => {
      const result = await ok(
        fetchSchoolSearch({
          client,
          query: {
            query: query.value,
            stateCode: filters.stateCode.value.trim() || undefined,
            level: filters.level.value ? [filters.level.value as SchoolLevel] : undefined,
            type: filters.type.value ? [filters.type.value as SchoolTypeFilter] : undefined,
            near: filters.near.value.trim() || undefined,
          },
        }),
      );
      const record = Object.entries(result.apirequest).map(([name, value]) => [
        h('dt', {}, name),
        h('dd', { 'data-field': name }, Array.isArray(value) ? value.join(', ') : String(value)),
      ]);
      show(
        answer,
        h('h3', {}, 'The request record (apirequest)'),
        h('dl', { class: 'facts' }, ...record.flat()),
        h('h3', {}, `The answer (${result.requestresult.total_count} matches)`),
        h(
          'pre',
          { class: 'json', tabindex: 0, 'aria-label': 'The answer as JSON' },
          h('code', {}, JSON.stringify(result, null, 2)),
        ),
      );
    },
    explain,
  );
  return h('section', { 'aria-labelledby': 'play-title' }, form, answer);
}
