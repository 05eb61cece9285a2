// The pages a mailed link opens to choose a password (confirm a sign-up, accept an invitation,
// reset a forgotten one): the new password twice, any choice the page adds, then the call with
// the link's token. A page opened without a token answers as a used link does (410).
import { ApiFailure } from '../api.ts';
import { h, onSubmit, show } from '../dom.ts';
import { newPasswordFields } from './new-password.ts';

/** The two passwords differ: said by the page, never sent. */
export class PasswordMismatch extends Error {}

export function renderLinkForm(
  view: HTMLElement,
  page: {
    /** The ids' prefix: `confirm`, `invitation`, `reset`. */
    readonly prefix: string;
    readonly token: string | null;
    readonly heading: string;
    readonly intro: string;
    readonly submitLabel: string;
    /** Fields after the passwords (the reset's "also revoke every API key"). */
    readonly extra?: readonly HTMLElement[];
    /** Sends the token and the chosen password (rejects with what the API answered). */
    send(token: string, password: string): Promise<void>;
    describe(failure: unknown): string;
  },
): void {
  const password = newPasswordFields(page.prefix);
  const submit = h('button', { type: 'submit' }, page.submitLabel);
  const error = h('p', { id: `${page.prefix}-error`, class: 'error', role: 'alert' });
  const form = h(
    'form',
    { method: 'post', 'aria-describedby': `${page.prefix}-error` },
    ...password.fields,
    ...(page.extra ?? []),
    submit,
    error,
  );
  onSubmit(
    form,
    { submit, error },
    async () => {
      const chosen = password.value();
      if (chosen === null) throw new PasswordMismatch();
      if (!page.token) throw new ApiFailure(410, undefined, null);
      await page.send(page.token, chosen);
    },
    (failure) => (failure instanceof PasswordMismatch ? 'The two passwords differ.' : page.describe(failure)),
  );
  show(view, h('h1', {}, page.heading), h('p', {}, page.intro), form);
  password.first.focus();
}
