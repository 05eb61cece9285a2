// API keys (and the sessions signed in): create with a name and a lifetime, see the value once
// with a copy button, rotate, revoke.
import { createApiKey, listMyTokens, revokeMyToken, rotateApiKey } from '../../../generated/sdk.gen.ts';
import type { ApiKey, TokenInfo } from '../../../generated/types.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { confirmAction, confirmWithPassword } from '../dialog.ts';
import { field, h, onSubmit, show, table } from '../dom.ts';
import { day, when } from '../format.ts';

/** Lifetimes offered; the API takes any number of days from 1 to 365. */
const LIFETIMES = [7, 30, 90, 180, 365];
const DEFAULT_LIFETIME = 90;

export function renderKeys(view: HTMLElement): void {
  const reveal = h('section', { id: 'new-key', class: 'reveal', 'aria-labelledby': 'new-key-title', hidden: true });
  const lists = h('div');
  const status = h('p', { id: 'keys-status', role: 'status' });
  show(
    view,
    h('h1', {}, 'API keys'),
    h(
      'p',
      {},
      'An API key is a token for a program: give it to the client as its apiKey, or send it as Authorization: Bearer. ',
      'It works until it expires (at most a year) or you revoke it.',
    ),
    createForm(reveal, lists, status),
    reveal,
    status,
    lists,
  );
  void refresh(lists, reveal, status);
}

function createForm(reveal: HTMLElement, lists: HTMLElement, status: HTMLElement): HTMLElement {
  const name = h('input', {
    id: 'key-name',
    type: 'text',
    required: true,
    // No maxlength: a browser counts it in UTF-16 units (32 emoji fill 64), the contract in
    // characters; the SDK's check and the server say when a name is too long.
    autocomplete: 'off',
    placeholder: 'e.g. nightly sync',
  });
  const lifetime = h(
    'select',
    { id: 'key-lifetime' },
    ...LIFETIMES.map((days) => h('option', { value: days, selected: days === DEFAULT_LIFETIME }, `${days} days`)),
  );
  // The API confirms a new key with the account's password: a stolen session alone mints none.
  const password = h('input', {
    id: 'key-password',
    type: 'password',
    required: true,
    autocomplete: 'current-password',
  });
  const submit = h('button', { type: 'submit' }, 'Create key');
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    { method: 'post', class: 'inline', 'aria-labelledby': 'create-key-title' },
    h('h2', { id: 'create-key-title' }, 'Create a key'),
    field('Name', name),
    field('Lifetime', lifetime),
    field('Your password', password, 'Asked again because a key can outlive this session by a year.'),
    submit,
    error,
  );
  onSubmit(
    form,
    { submit, error },
    async () => {
      const key = await ok(
        createApiKey({
          client,
          body: {
            name: name.value.trim(),
            expires_in_days: Number(lifetime.value),
            current_password: password.value,
          },
        }),
      );
      form.reset();
      revealKey(reveal, key, 'created');
      await refresh(lists, reveal, status);
    },
    (failure) =>
      failure instanceof ApiFailure && failure.status === 409
        ? 'You have 20 live keys, the most there can be. Revoke one you no longer use first.'
        : failure instanceof ApiFailure && failure.status === 403
          ? 'The password is not right.'
          : explain(failure),
  );
  return form;
}

/** Shows a key's value, once: it is in no list, and gone when the panel is dismissed. */
function revealKey(reveal: HTMLElement, key: ApiKey, how: 'created' | 'rotated'): void {
  const value = h('input', {
    id: 'new-key-value',
    type: 'text',
    readonly: true,
    value: key.token,
    spellcheck: 'false',
    autocomplete: 'off',
  });
  const copy = h('button', { type: 'button' }, 'Copy');
  const copied = h('span', { role: 'status', class: 'copied' });
  const done = h('button', { type: 'button', class: 'secondary' }, 'Done');
  copy.addEventListener('click', async () => {
    value.select();
    try {
      await navigator.clipboard.writeText(key.token);
      copied.textContent = 'Copied.';
    } catch {
      copied.textContent = 'Press Ctrl+C (⌘C) to copy the selected key.';
    }
  });
  done.addEventListener('click', () => dismiss(reveal));
  show(
    reveal,
    h(
      'h2',
      { id: 'new-key-title' },
      how === 'created' ? `Your new key “${key.name}”` : `The new value of “${key.name}”`,
    ),
    h('p', { class: 'warning' }, 'Copy it now: it is shown only this once. Store it like a password.'),
    h(
      'div',
      { class: 'field copy' },
      h('label', { for: 'new-key-value' }, 'Key'),
      h('div', { class: 'row' }, value, copy),
    ),
    copied,
    h('p', {}, `Expires ${when(key.expires_at)}.`),
    done,
  );
  // Which key the panel shows: once that key is no longer live (revoked here or elsewhere, or
  // rotated away), the lists' next refresh takes the panel down with its dead value.
  reveal.dataset['tokenId'] = key.token_id;
  reveal.hidden = false;
  value.focus();
  value.select();
}

/** Takes the new-key panel down, and its value out of the page. */
function dismiss(reveal: HTMLElement): void {
  reveal.hidden = true;
  reveal.replaceChildren();
  delete reveal.dataset['tokenId'];
}

async function refresh(lists: HTMLElement, reveal: HTMLElement, status: HTMLElement): Promise<void> {
  try {
    const { tokens } = await ok(listMyTokens({ client }));
    if (!lists.isConnected) return;
    const keys = tokens.filter((t) => t.kind === 'key');
    const shown = reveal.dataset['tokenId'];
    if (shown !== undefined && !keys.some((k) => k.token_id === shown)) dismiss(reveal);
    const sessions = tokens.filter((t) => t.kind === 'session');
    const again = () => refresh(lists, reveal, status);
    show(
      lists,
      h('h2', {}, `Your keys (${keys.length})`),
      keys.length === 0
        ? h('p', {}, 'No API keys yet.')
        : table(
            'API keys',
            ['Name', 'Key', 'Created', 'Expires', 'Last used', 'Actions'],
            keys.map((k) => keyRow(k, reveal, status, again)),
            { captionHidden: true },
          ),
      h('h2', {}, `Signed-in sessions (${sessions.length})`),
      table(
        'Sessions',
        ['Token', 'Signed in', 'Expires', 'Last used', 'Actions'],
        sessions.map((s) => sessionRow(s, status, again)),
        { captionHidden: true },
      ),
    );
  } catch (failure) {
    if (lists.isConnected) show(lists, h('p', { class: 'error', role: 'alert' }, explain(failure)));
  }
}

function keyRow(key: TokenInfo, reveal: HTMLElement, status: HTMLElement, refresh: () => Promise<void>): HTMLElement {
  const name = key.name ?? '';
  const rotate = h('button', { type: 'button', 'aria-label': `Rotate key ${name}` }, 'Rotate');
  const revoke = h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke key ${name}` }, 'Revoke');
  rotate.addEventListener('click', async () => {
    const password = await confirmWithPassword(
      `Rotate “${name}”?`,
      'A new value replaces this key at once: programs using the old value get 401 until they get the new one.',
      'Rotate key',
    );
    if (password === undefined) return;
    await reporting(status, async () => {
      revealKey(
        reveal,
        await ok(rotateApiKey({ client, path: { tokenId: key.token_id }, body: { current_password: password } })),
        'rotated',
      );
      await refresh();
    });
  });
  revoke.addEventListener('click', async () => {
    if (
      !(await confirmAction(
        `Revoke “${name}”?`,
        'Programs using this key get 401 from now on. This cannot be undone.',
        'Revoke key',
      ))
    )
      return;
    await revokeToken(key.token_id, `The key “${name}” is revoked.`, status, refresh);
  });
  return h(
    'tr',
    { 'data-token-id': key.token_id },
    h('th', { scope: 'row' }, name),
    h('td', {}, h('code', {}, `${key.hint}…`)),
    h('td', {}, day(key.created_at)),
    h('td', {}, when(key.expires_at)),
    h('td', {}, when(key.last_used_at)),
    h('td', { class: 'actions' }, rotate, revoke),
  );
}

function sessionRow(session: TokenInfo, status: HTMLElement, refresh: () => Promise<void>): HTMLElement {
  const action = session.current
    ? h('span', { class: 'current' }, 'This browser')
    : h('button', { type: 'button', class: 'danger', 'aria-label': `Sign out session ${session.hint}` }, 'Sign out');
  if (!session.current)
    action.addEventListener('click', () =>
      revokeToken(session.token_id, 'The session is signed out.', status, refresh),
    );
  return h(
    'tr',
    { 'data-token-id': session.token_id },
    h('td', {}, h('code', {}, `${session.hint}…`)),
    h('td', {}, when(session.created_at)),
    h('td', {}, when(session.expires_at)),
    h('td', {}, when(session.last_used_at)),
    h('td', { class: 'actions' }, action),
  );
}

/** Revokes a key or a session (the same operation), says so, and shows the lists again. */
function revokeToken(tokenId: string, done: string, status: HTMLElement, refresh: () => Promise<void>): Promise<void> {
  return reporting(status, async () => {
    await ok(revokeMyToken({ client, path: { tokenId } }));
    status.textContent = done;
    await refresh();
  });
}

/** Runs an action of the lists; a failure is said in the status line. */
async function reporting(status: HTMLElement, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (failure) {
    status.textContent =
      failure instanceof ApiFailure && failure.status === 403 ? 'The password is not right.' : explain(failure);
  }
}
