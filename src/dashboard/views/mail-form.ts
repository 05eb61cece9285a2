// The pages that ask for an e-mail address and have a link mailed to it (sign-up, forgotten
// password): one field, one button, then "Check your e-mail". The API answers the same for every
// address, so the page says only that an e-mail is on its way.
import { field, h, onSubmit, show } from '../dom.ts';

export function renderMailForm(
  view: HTMLElement,
  page: {
    /** The ids' prefix: `signup`, `forgot`. */
    readonly prefix: string;
    readonly heading: string;
    readonly intro: string;
    /** Asks the API to mail the address (rejects with what the API answered). */
    send(email: string): Promise<unknown>;
    /** What the page says once the mail is on its way. */
    sent(email: string): string;
    describe(failure: unknown): string;
    /** Below the form: the way back to signing in, or on. */
    readonly after: HTMLElement;
  },
): void {
  const email = h('input', {
    id: `${page.prefix}-email`,
    name: 'email',
    type: 'email',
    autocomplete: 'username',
    required: true,
    maxlength: 254,
  });
  const submit = h('button', { type: 'submit' }, 'Send me a link');
  const error = h('p', { id: `${page.prefix}-error`, class: 'error', role: 'alert' });
  const form = h(
    'form',
    { method: 'post', 'aria-describedby': `${page.prefix}-error` },
    field('E-mail', email),
    submit,
    error,
  );
  onSubmit(
    form,
    { submit, error },
    async () => {
      const address = email.value.trim();
      await page.send(address);
      show(
        view,
        h('h1', {}, 'Check your e-mail'),
        h('p', { class: 'notice', role: 'status' }, page.sent(address)),
        h('p', {}, h('a', { href: '#signin' }, 'Back to sign in')),
      );
    },
    page.describe,
  );
  show(view, h('h1', {}, page.heading), h('p', {}, page.intro), form, page.after);
  email.focus();
}
