// The choices the try-it panel and the search playground share: a state, a level, a type, a point.
import type { SchoolLevel, SchoolTypeFilter } from '../../../generated/types.gen.ts';
import { field, h } from '../dom.ts';

export const LEVELS: readonly SchoolLevel[] = ['elementary', 'middle', 'high', 'postsecondary', 'other'];
export const TYPES: readonly SchoolTypeFilter[] = ['public', 'private', 'charter', 'postsecondary'];

export interface FilterInputs {
  readonly stateCode: HTMLInputElement;
  readonly level: HTMLSelectElement;
  readonly type: HTMLSelectElement;
  readonly near: HTMLInputElement;
  readonly fields: HTMLElement[];
}

export function filterInputs(prefix: string): FilterInputs {
  const stateCode = h('input', {
    id: `${prefix}-state`,
    type: 'text',
    maxlength: 2,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'e.g. MA',
  });
  const choice = (id: string, values: readonly string[]) =>
    h(
      'select',
      { id: `${prefix}-${id}` },
      h('option', { value: '' }, 'any'),
      ...values.map((value) => h('option', { value }, value)),
    );
  const level = choice('level', LEVELS);
  const type = choice('type', TYPES);
  const near = h('input', {
    id: `${prefix}-near`,
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'e.g. 42.3736,-71.1097',
  });
  return {
    stateCode,
    level,
    type,
    near,
    fields: [
      field('State or province', stateCode, 'Two letters; empty: everywhere.'),
      field('Level', level),
      field('Type', type),
      field('Near', near, 'latitude,longitude: nearest first among equal matches.'),
    ],
  };
}
