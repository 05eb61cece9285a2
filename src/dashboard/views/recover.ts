// "Forgot your password?": ask for a reset link (POST /v1/password/forgot; the answer is the same
// for every address), then set a new password from the link (POST /v1/password/reset), which
// signs out every session of the account and, when asked, revokes every API key.
import { requestPasswordReset, resetPassword } from '../../../generated/sdk.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { field, h, onSubmit, show } from '../dom.ts';
import { clearSession } from '../session.ts';
import { takeLinkToken } from './link-token.ts';
import { newPasswordFields } from './new-password.ts';
import { revokeKeysChoice } from './revoke-keys.ts';
import { linkProblem } from './signup.ts';

export function renderForgot(view: HTMLElement): void {
  const email = h('input', {
    id: 'forgot-email',
    name: 'email',
    type: 'email',
    autocomplete: 'username',
    required: true,
    maxlength: 254,
  });
  const submit = h('button', { type: 'submit' }, 'Send me a link');
  const error = h('p', { id: 'forgot-error', class: 'error', role: 'alert' });
  const form = h('form', { method: 'post', 'aria-describedby': 'forgot-error' }, field('E-mail', email), submit, error);
  onSubmit(
    form,
    { submit, error },
    async () => {
      await ok(requestPasswordReset({ client, body: { email: email.value.trim() } }), { ending: false });
      show(
        view,
        h('h1', {}, 'Check your e-mail'),
        h(
          'p',
          { class: 'notice', role: 'status' },
          `An e-mail is on its way to ${email.value.trim()}. If the address has an account, its link lets you choose a new password within 60 minutes. Asked more than once, the e-mails hold the same link.`,
        ),
        h('p', {}, h('a', { href: '#signin' }, 'Back to sign in')),
      );
    },
    (failure) => {
      if (failure instanceof ApiFailure && failure.status === 403) {
        return 'Password reset by e-mail is not set up on this server. Ask its operator.';
      }
      if (failure instanceof ApiFailure && failure.status === 503) {
        return 'The e-mail could not be sent yet. It is sent again automatically: check your mail in a few minutes.';
      }
      if (failure instanceof ApiFailure && failure.status === 400) return 'Enter a valid e-mail address.';
      return explain(failure);
    },
  );
  show(
    view,
    h('h1', {}, 'Forgot your password?'),
    h('p', {}, 'Enter the e-mail address of your account: we send it a link to choose a new password.'),
    form,
    h('p', {}, h('a', { href: '#signin' }, 'Back to sign in')),
  );
  email.focus();
}

export function renderReset(view: HTMLElement, done: (notice: string) => void): void {
  const token = takeLinkToken('reset');
  const password = newPasswordFields('reset');
  const keys = revokeKeysChoice('reset-revoke-keys');
  const submit = h('button', { type: 'submit' }, 'Set new password');
  const error = h('p', { id: 'reset-error', class: 'error', role: 'alert' });
  const form = h(
    'form',
    { method: 'post', 'aria-describedby': 'reset-error' },
    ...password.fields,
    keys.field,
    submit,
    error,
  );
  let mismatch = false;
  onSubmit(
    form,
    { submit, error },
    async () => {
      const chosen = password.value();
      mismatch = chosen === null;
      if (chosen === null) throw new Error('mismatch');
      if (!token) throw new ApiFailure(410, undefined, null);
      const revokeKeys = keys.input.checked;
      await ok(resetPassword({ client, body: { token, new_password: chosen, revoke_api_keys: revokeKeys } }), {
        ending: false,
      });
      // This tab's session, if any, was signed out with every other.
      clearSession();
      done(
        revokeKeys
          ? 'Your new password is set. Every session and API key of the account was revoked: sign in with the new password.'
          : 'Your new password is set. Every session of the account was signed out (its API keys keep working): sign in with the new password.',
      );
    },
    (failure) => (mismatch ? 'The two passwords differ.' : linkProblem(failure)),
  );
  show(
    view,
    h('h1', {}, 'Choose a new password'),
    h(
      'p',
      {},
      'Setting it signs out every session of the account. Its API keys keep working unless you choose to revoke them too.',
    ),
    form,
  );
  password.first.focus();
}
