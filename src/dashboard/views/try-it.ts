// "Try it" (#try, #try/<token_id>): the school picker running with one of the person's publishable
// keys, in a frame of this origin (/dashboard/picker-frame) as a customer's page runs it; the
// snippets for that key (HTML, curl, the TypeScript and Python clients); and the search playground.
import { listMyTokens } from '../../../generated/sdk.gen.ts';
import type { TokenInfo } from '../../../generated/types.gen.ts';
import { client, explain, ok } from '../api.ts';
import { copyBlock, field, h, show } from '../dom.ts';
import { knownKey, rememberKey } from '../key-values.ts';
import { originAllows } from '../origin-lines.ts';
import {
  curlSnippet,
  htmlSnippet,
  type PickerOptions,
  pythonSnippet,
  type SnippetInput,
  typescriptSnippet,
} from '../snippets.ts';
import { filterInputs } from './picker-options.ts';
import { playground } from './playground.ts';
import { publishableForm } from './publishable-form.ts';

/** What a key's value looks like (the contract's PublishableKey). */
const KEY_VALUE = /^spk_[A-Za-z0-9_-]{43}$/;
const UNKNOWN_KEY = 'spk_…your publishable key…';

export function renderTryIt(view: HTMLElement): void {
  const chosen = /^#try\/([\w-]+)$/.exec(location.hash)?.[1];
  const body = h('div', { 'aria-busy': 'true' }, h('p', {}, 'Loading…'));
  show(
    view,
    h('h1', {}, 'Try it'),
    h(
      'p',
      {},
      'The school picker on a page, with one of your publishable keys, and the code to put it in yours. ',
      'The picker below runs in a frame of this site, so the key must list this origin (',
      h('code', {}, location.origin),
      ').',
    ),
    body,
    playground(),
  );
  void load(body, chosen);
}

async function load(body: HTMLElement, chosen: string | undefined): Promise<void> {
  try {
    const { tokens } = await ok(listMyTokens({ client }));
    if (!body.isConnected) return;
    body.removeAttribute('aria-busy');
    const keys = tokens.filter((t) => t.kind === 'key' && t.key_type === 'publishable');
    if (keys.length === 0) {
      show(
        body,
        h('p', {}, 'You have no publishable key yet. Make one for this origin to try the picker here:'),
        publishableForm({
          id: 'try-pk',
          title: 'Create a publishable key',
          prefill: { name: 'Try-it key', origins: location.origin },
          onCreated: (key) => {
            location.hash = `#try/${key.token_id}`;
          },
        }),
      );
      return;
    }
    const start = keys.find((k) => k.token_id === chosen) ?? keys.find((k) => knownKey(k.token_id)) ?? keys[0]!;
    const select = h(
      'select',
      { id: 'try-key' },
      ...keys.map((k) => h('option', { value: k.token_id, selected: k === start }, `${k.name ?? ''} (${k.hint}…)`)),
    );
    const panel = h('div');
    select.addEventListener('change', () => {
      history.replaceState(null, '', `#try/${select.value}`);
      showKey(panel, keys.find((k) => k.token_id === select.value)!);
    });
    show(body, field('Publishable key', select), panel);
    showKey(panel, start);
  } catch (failure) {
    if (body.isConnected) show(body, h('p', { class: 'error', role: 'alert' }, explain(failure)));
  }
}

/** The picker and the snippets for one key: its value if this tab knows it, else a field to paste it. */
function showKey(panel: HTMLElement, key: TokenInfo): void {
  const value = knownKey(key.token_id);
  const origins = key.publishable?.origins ?? [];
  const paste = h('input', {
    id: 'try-key-value',
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: `${key.hint}…`,
  });
  const pasteError = h('p', { class: 'error', role: 'alert' });
  paste.addEventListener('change', () => {
    const typed = paste.value.trim();
    if (!KEY_VALUE.test(typed) || !typed.startsWith(key.hint)) {
      pasteError.textContent = `That is not the value of this key: it starts ${key.hint} and has 47 characters.`;
      return;
    }
    rememberKey(key.token_id, typed);
    showKey(panel, key);
  });
  show(
    panel,
    value
      ? null
      : h(
          'div',
          { class: 'notice' },
          h(
            'p',
            {},
            'The key’s value is shown once, when it is made or rotated, and this tab no longer has it. Paste it here, ',
            'or rotate the key under API keys for a new one.',
          ),
          h('div', { class: 'field' }, h('label', { for: paste.id }, 'The key’s value'), paste),
          pasteError,
        ),
    origins.some((o) => originAllows(o, location.origin))
      ? null
      : h(
          'p',
          { class: 'notice', id: 'try-origin-notice' },
          `This key does not list this origin (${location.origin}), so the picker here is refused (403). `,
          'Add it to the key’s origins under API keys (Edit) to try it here.',
        ),
    pickerPanel({ tokenId: key.token_id, key: value, origins }),
  );
}

/** The picker's options, the frame running it, and the snippets, all for the same key and options. */
export function pickerPanel(input: {
  readonly tokenId: string;
  readonly key: string | undefined;
  readonly origins: readonly string[];
}): HTMLElement {
  const filters = filterInputs('picker');
  const frameHolder = h('div', { class: 'picker-frame' });
  const snippets = h('div', { class: 'snippets' });
  const options = (): PickerOptions => ({
    stateCode: filters.stateCode.value.trim().toUpperCase() || undefined,
    level: filters.level.value || undefined,
    type: filters.type.value || undefined,
    near: filters.near.value.trim() || undefined,
  });
  const update = () => {
    const picker = options();
    const snippet: SnippetInput = {
      api: location.origin,
      key: input.key ?? UNKNOWN_KEY,
      origin: input.origins[0] ?? location.origin,
      picker,
    };
    const fragment = new URLSearchParams();
    if (input.key) fragment.set('key', input.key);
    if (picker.stateCode) fragment.set('state-code', picker.stateCode);
    if (picker.level) fragment.set('level', picker.level);
    if (picker.type) fragment.set('type', picker.type);
    if (picker.near) fragment.set('near', picker.near);
    // A new frame for new options: the picker reads its attributes when it is made.
    show(
      frameHolder,
      h('iframe', {
        id: 'picker-frame',
        title: 'The school picker with your key',
        src: `/dashboard/picker-frame#${fragment}`,
      }),
    );
    show(
      snippets,
      h('h3', {}, 'Put it in your page'),
      copyBlock('snippet-html', 'HTML', htmlSnippet(snippet)),
      h('h3', {}, 'From a terminal, or another client'),
      copyBlock('snippet-curl', 'curl', curlSnippet(snippet)),
      copyBlock('snippet-typescript', 'TypeScript client', typescriptSnippet(snippet)),
      copyBlock('snippet-python', 'Python client', pythonSnippet(snippet)),
    );
  };
  for (const element of [filters.stateCode, filters.level, filters.type, filters.near])
    element.addEventListener('change', update);
  update();
  return h(
    'section',
    { class: 'try-it', 'aria-labelledby': `try-title-${input.tokenId}` },
    h('h2', { id: `try-title-${input.tokenId}` }, 'The picker with this key'),
    h('div', { class: 'inline-fields' }, ...filters.fields),
    frameHolder,
    snippets,
  );
}
