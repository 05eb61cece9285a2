// The first-run panel, on the account page of an account with no API key and no request yet:
// three steps to a working picker. The key is prefilled for this dashboard's own origin, so that
// the picker runs here at once (step 2); the snippet (step 3) is the one to put in the person's
// page, once they add its origin to the key.
import type { ApiKey } from '../../../generated/types.gen.ts';
import { h, show } from '../dom.ts';
import { pickerPanel } from './try-it.ts';
import { publishableForm } from './publishable-form.ts';

export function firstRunPanel(): HTMLElement {
  const after = h('div');
  const step1: HTMLElement = h(
    'li',
    {},
    h('h3', {}, 'Create a publishable key for your page’s origin'),
    h(
      'p',
      { class: 'hint' },
      'It is filled in with this dashboard’s origin, so that the picker works here at once. Add your site’s origin ',
      '(https://www.example.org) on a line of its own, now or later under API keys.',
    ),
    publishableForm({
      id: 'first-pk',
      title: 'Your first publishable key',
      prefill: { name: 'My first page', origins: location.origin },
      onCreated: (key): void => created(step1, after, key),
    }),
  );
  return h(
    'section',
    { class: 'first-run', 'aria-labelledby': 'first-run-title' },
    h('h2', { id: 'first-run-title' }, 'Get started'),
    h('p', {}, 'Nothing here yet. In three steps, a school picker on your page:'),
    h(
      'ol',
      { class: 'steps' },
      step1,
      h('li', {}, h('h3', {}, 'See the picker work with it'), h('p', { class: 'hint' }, 'Once the key exists.')),
      h(
        'li',
        {},
        h('h3', {}, 'Copy the snippet into your page'),
        h('p', { class: 'hint' }, 'HTML, curl, or a client.'),
      ),
    ),
    after,
  );
}

function created(step1: HTMLElement, after: HTMLElement, key: ApiKey): void {
  show(
    step1,
    h('h3', {}, 'Create a publishable key for your page’s origin'),
    h(
      'p',
      { id: 'first-run-created' },
      `Done: “${key.name}”, `,
      h('code', {}, key.token),
      `, for ${key.publishable?.origins.join(', ') ?? ''}. It is in the snippets below; API keys lists it (its value is shown this once).`,
    ),
  );
  const list = step1.parentElement;
  // Steps 2 and 3 are the picker panel: the frame, then the snippets.
  for (const li of list?.querySelectorAll(':scope > li:not(:first-child)') ?? []) li.remove();
  show(after, pickerPanel({ tokenId: key.token_id, key: key.token, origins: key.publishable?.origins ?? [] }));
}
