// The form that makes a publishable key: a name, the origins it works from (one a line, checked as
// the server checks them), its budgets (empty: the server's defaults, which the hints say) and
// lifetime, and the account's password. The keys view and the first-run panel both use it.
import { createPublishableKey } from '../../../generated/sdk.gen.ts';
import type { ApiKey } from '../../../generated/types.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { field, h, onSubmit } from '../dom.ts';
import { rememberKey } from '../key-values.ts';
import { originLines } from '../origin-lines.ts';

/** Lifetimes offered; the API takes 1 to 3650 days (365 unless given). */
const LIFETIMES = [30, 90, 365, 730, 1825, 3650];
const DEFAULT_LIFETIME = 365;
/** The visitors' share a minute unless given (the contract's default, or the key's budget if lower). */
export const DEFAULT_VISITOR_PER_MINUTE = 60;

export interface BudgetInputs {
  readonly perMinute: HTMLInputElement;
  readonly perDay: HTMLInputElement;
  readonly perVisitor: HTMLInputElement;
  readonly fields: HTMLElement[];
}

/** The three budget fields; `prefix` keeps their ids apart (the form, the edit dialog). */
export function budgetInputs(prefix: string, current?: readonly [number, number, number]): BudgetInputs {
  const number = (id: string, value: number | undefined, placeholder: string) =>
    h('input', {
      id: `${prefix}-${id}`,
      type: 'number',
      min: 1,
      step: 1,
      inputmode: 'numeric',
      value,
      placeholder,
    });
  const perMinute = number('per-minute', current?.[0], 'your search quota');
  const perDay = number('per-day', current?.[1], 'the server’s ceiling');
  const perVisitor = number('per-visitor', current?.[2], String(DEFAULT_VISITOR_PER_MINUTE));
  return {
    perMinute,
    perDay,
    perVisitor,
    fields: [
      field(
        'Searches a minute',
        perMinute,
        current
          ? 'From every visitor together.'
          : 'From every visitor together. Empty: your account’s search quota a minute.',
      ),
      field(
        'Searches a day',
        perDay,
        current ? 'In 24 hours.' : 'In 24 hours. Empty: the most this server lets one key spend (100,000 by default).',
      ),
      field(
        'Searches a minute per visitor',
        perVisitor,
        current
          ? 'One visitor’s share: one bot cannot spend the site’s budget.'
          : `One visitor’s share. Empty: ${DEFAULT_VISITOR_PER_MINUTE}, or the key’s budget a minute if lower.`,
      ),
    ],
  };
}

/** A budget field's number, or undefined when it is empty (the server's default, or no change). */
export function budget(input: HTMLInputElement): number | undefined {
  return input.value.trim() === '' ? undefined : Number(input.value);
}

/** Problems of a key's form, as sentences: the server's own message unless a kinder one is known. */
export function explainKeyFailure(failure: unknown): string {
  if (failure instanceof ApiFailure && failure.status === 409)
    return 'You have 20 live publishable keys, the most there can be. Revoke one you no longer use first.';
  if (failure instanceof ApiFailure && failure.status === 403) return 'The password is not right.';
  return explain(failure);
}

export function publishableForm(options: {
  readonly id: string;
  readonly title: string;
  readonly prefill?: { readonly name: string; readonly origins: string };
  readonly onCreated: (key: ApiKey) => void | Promise<void>;
}): HTMLFormElement {
  const id = options.id;
  const name = h('input', {
    id: `${id}-name`,
    type: 'text',
    required: true,
    autocomplete: 'off',
    placeholder: 'e.g. school finder on our site',
    value: options.prefill?.name,
  });
  const origins = h('textarea', {
    id: `${id}-origins`,
    rows: 3,
    required: true,
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: 'https://www.example.org',
  });
  // Its default text, so that the form's reset after a key is made brings the prefill back.
  origins.textContent = options.prefill?.origins ?? '';
  const budgets = budgetInputs(id);
  const lifetime = h(
    'select',
    { id: `${id}-lifetime` },
    ...LIFETIMES.map((days) => h('option', { value: days, selected: days === DEFAULT_LIFETIME }, `${days} days`)),
  );
  const password = h('input', {
    id: `${id}-password`,
    type: 'password',
    required: true,
    autocomplete: 'current-password',
  });
  const submit = h('button', { type: 'submit' }, 'Create publishable key');
  const error = h('p', { class: 'error', role: 'alert', id: `${id}-error` });
  const form = h(
    'form',
    { method: 'post', class: 'inline', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, options.title),
    field('Name', name),
    h(
      'div',
      { class: 'field wide' },
      h('label', { for: origins.id }, 'Origins, one a line'),
      origins,
      h(
        'p',
        { class: 'hint', id: `${origins.id}-hint` },
        'The pages the key works from, as the browser names them: scheme://host[:port], no path or trailing slash. ',
        'https://*.example.org covers every subdomain.',
      ),
    ),
    ...budgets.fields,
    field('Lifetime', lifetime),
    field('Your password', password, 'Asked again because a key can outlive this session by years.'),
    submit,
    error,
  );
  origins.setAttribute('aria-describedby', `${origins.id}-hint`);
  onSubmit(
    form,
    { submit, error },
    async () => {
      const lines = originLines(origins.value);
      if ('problem' in lines) {
        origins.setAttribute('aria-invalid', 'true');
        origins.focus();
        throw new ApiFailure(0, { detail: lines.problem }, null);
      }
      origins.removeAttribute('aria-invalid');
      const key = await ok(
        createPublishableKey({
          client,
          body: {
            name: name.value.trim(),
            origins: lines.origins,
            searches_per_minute: budget(budgets.perMinute),
            searches_per_day: budget(budgets.perDay),
            visitor_searches_per_minute: budget(budgets.perVisitor),
            expires_in_days: Number(lifetime.value),
            current_password: password.value,
          },
        }),
      );
      rememberKey(key.token_id, key.token);
      form.reset();
      await options.onCreated(key);
    },
    explainKeyFailure,
  );
  return form;
}
