// API keys (and the sessions signed in): secret keys for programs and publishable keys for web
// pages, each created with a name and a lifetime (a publishable one with its origins and
// budgets), the value shown once with a copy button; renamed (a publishable key re-scoped),
// rotated, revoked.
import { createApiKey, listMyTokens, revokeMyToken, rotateApiKey, updateApiKey } from '../../../generated/sdk.gen.ts';
import type { ApiKey, ApiKeyUpdate, TokenInfo } from '../../../generated/types.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { confirmAction, confirmWithPassword, formDialog } from '../dialog.ts';
import { field, h, onSubmit, show, table } from '../dom.ts';
import { count, day, when } from '../format.ts';
import { forgetKey, rememberKey } from '../key-values.ts';
import { originLines } from '../origin-lines.ts';
import { budget, budgetInputs, explainKeyFailure, publishableForm } from './publishable-form.ts';

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
      'A secret key (ssk_…) is for a program: give it to the client as its apiKey, or send it as Authorization: Bearer. ',
      'It has every right your account has, works until it expires (at most a year) or you revoke it, and must stay secret.',
    ),
    h(
      'p',
      {},
      'A publishable key (spk_…) is for a web page: it sits in the page’s source, can only search and read schools, ',
      'works only from the origins you list, and spends budgets of its own. ',
      h('a', { href: '#try' }, 'Try one with the school picker'),
      '.',
    ),
    createForm(reveal, lists, status),
    publishableForm({
      id: 'pk',
      title: 'Create a publishable key',
      onCreated: async (key) => {
        revealKey(reveal, key, 'created');
        await refresh(lists, reveal, status);
      },
    }),
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
    h('h2', { id: 'create-key-title' }, 'Create a secret key'),
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
    key.key_type === 'publishable'
      ? h(
          'p',
          {},
          'Put it in your page with the school picker: ',
          h('a', { href: `#try/${key.token_id}` }, 'try it and copy the snippet'),
          ' (this tab remembers the value until you reload).',
        )
      : null,
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
    const secret = keys.filter((k) => k.key_type !== 'publishable');
    const publishable = keys.filter((k) => k.key_type === 'publishable');
    const sessions = tokens.filter((t) => t.kind === 'session');
    const again = () => refresh(lists, reveal, status);
    show(
      lists,
      h('h2', {}, `Secret keys (${secret.length})`),
      secret.length === 0
        ? h('p', {}, 'No secret keys yet.')
        : table(
            'Secret keys',
            ['Name', 'Key', 'Created', 'Expires', 'Last used', 'Actions'],
            secret.map((k) => keyRow(k, reveal, status, again)),
            { captionHidden: true },
          ),
      h('h2', {}, `Publishable keys (${publishable.length})`),
      publishable.length === 0
        ? h('p', {}, 'No publishable keys yet.')
        : table(
            'Publishable keys',
            ['Name', 'Key', 'Origins', 'Budgets', 'Expires', 'Last used', 'Actions'],
            publishable.map((k) => keyRow(k, reveal, status, again)),
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
  const scope = key.key_type === 'publishable' ? key.publishable : undefined;
  const edit = h(
    'button',
    { type: 'button', class: 'secondary', 'aria-label': `${scope ? 'Edit' : 'Rename'} key ${name}` },
    scope ? 'Edit' : 'Rename',
  );
  edit.addEventListener('click', async () => {
    if (await editKey(key)) {
      status.textContent = `The key “${name}” is saved.`;
      await refresh();
    }
  });
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
      const rotated = await ok(
        rotateApiKey({ client, path: { tokenId: key.token_id }, body: { current_password: password } }),
      );
      forgetKey(key.token_id);
      if (rotated.key_type === 'publishable') rememberKey(rotated.token_id, rotated.token);
      revealKey(reveal, rotated, 'rotated');
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
    forgetKey(key.token_id);
    await revokeToken(key.token_id, `The key “${name}” is revoked.`, status, refresh);
  });
  return h(
    'tr',
    { 'data-token-id': key.token_id },
    h('th', { scope: 'row' }, name),
    h('td', {}, h('code', {}, `${key.hint}…`)),
    scope
      ? h('td', { class: 'origins' }, h('ul', {}, ...scope.origins.map((origin) => h('li', {}, h('code', {}, origin)))))
      : h('td', {}, day(key.created_at)),
    scope
      ? h(
          'td',
          { class: 'budgets' },
          `${count(scope.searches_per_minute)} a minute, ${count(scope.searches_per_day)} a day, `,
          `${count(scope.visitor_searches_per_minute)} a minute per visitor`,
        )
      : null,
    h('td', {}, when(key.expires_at)),
    h('td', {}, when(key.last_used_at)),
    h('td', { class: 'actions' }, edit, rotate, revoke),
  );
}

/**
 * Renames a key and, for a publishable one, changes its origins and budgets (updateApiKey: no
 * password, nothing here gives the key a right it lacked). Only what changed is sent. A secret
 * key has a name only: the server refuses it origins.
 */
function editKey(key: TokenInfo): Promise<boolean> {
  const scope = key.key_type === 'publishable' ? key.publishable : undefined;
  const name = h('input', {
    id: 'edit-name',
    type: 'text',
    required: true,
    autocomplete: 'off',
    value: key.name ?? '',
  });
  const fields: HTMLElement[] = [field('Name', name)];
  const origins = h('textarea', { id: 'edit-origins', rows: 4, required: true, spellcheck: 'false' });
  const budgets = scope
    ? budgetInputs('edit', [scope.searches_per_minute, scope.searches_per_day, scope.visitor_searches_per_minute])
    : undefined;
  if (scope && budgets) {
    origins.value = scope.origins.join('\n');
    fields.push(field('Origins, one a line', origins, 'Replaces the list: a page taken off it is refused at once.'));
    fields.push(...budgets.fields);
  }
  return formDialog(
    `${scope ? 'Edit' : 'Rename'} “${key.name ?? ''}”`,
    fields,
    'Save',
    async () => {
      const change: ApiKeyUpdate = {};
      if (name.value.trim() !== key.name) change.name = name.value.trim();
      if (scope && budgets) {
        const lines = originLines(origins.value);
        if ('problem' in lines) throw new ApiFailure(0, { detail: lines.problem }, null);
        if (lines.origins.join('\n') !== scope.origins.join('\n')) change.origins = lines.origins;
        const perMinute = budget(budgets.perMinute);
        const perDay = budget(budgets.perDay);
        const perVisitor = budget(budgets.perVisitor);
        if (perMinute !== undefined && perMinute !== scope.searches_per_minute) change.searches_per_minute = perMinute;
        if (perDay !== undefined && perDay !== scope.searches_per_day) change.searches_per_day = perDay;
        if (perVisitor !== undefined && perVisitor !== scope.visitor_searches_per_minute)
          change.visitor_searches_per_minute = perVisitor;
      }
      if (Object.keys(change).length === 0) return;
      await ok(updateApiKey({ client, path: { tokenId: key.token_id }, body: change }));
    },
    explainKeyFailure,
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
