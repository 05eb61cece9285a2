// "Forgot your password?": ask for a reset link (POST /v1/password/forgot; the answer is the same
// for every address), then set a new password from the link (POST /v1/password/reset), which
// signs out every session of the account and, when asked, revokes every API key.
import { requestPasswordReset, resetPassword } from '../../../generated/sdk.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { h } from '../dom.ts';
import { clearSession } from '../session.ts';
import { renderLinkForm } from './link-form.ts';
import { takeLinkToken } from './link-token.ts';
import { renderMailForm } from './mail-form.ts';
import { revokeKeysChoice } from './revoke-keys.ts';
import { linkProblem } from './signup.ts';

export function renderForgot(view: HTMLElement): void {
  renderMailForm(view, {
    prefix: 'forgot',
    heading: 'Forgot your password?',
    intro: 'Enter the e-mail address of your account: we send it a link to choose a new password.',
    send: (email) => ok(requestPasswordReset({ client, body: { email } }), { ending: false }),
    sent: (email) =>
      `An e-mail is on its way to ${email}. If the address has an account, its link lets you choose a new password within 60 minutes. Asked more than once, the e-mails hold the same link.`,
    describe(failure) {
      if (failure instanceof ApiFailure && failure.status === 403) {
        return 'Password reset by e-mail is not set up on this server. Ask its operator.';
      }
      if (failure instanceof ApiFailure && failure.status === 503) {
        return 'The e-mail could not be sent yet. It is sent again automatically: check your mail in a few minutes.';
      }
      if (failure instanceof ApiFailure && failure.status === 400) return 'Enter a valid e-mail address.';
      return explain(failure);
    },
    after: h('p', {}, h('a', { href: '#signin' }, 'Back to sign in')),
  });
}

export function renderReset(view: HTMLElement, done: (notice: string) => void): void {
  const keys = revokeKeysChoice('reset-revoke-keys');
  renderLinkForm(view, {
    prefix: 'reset',
    token: takeLinkToken('reset'),
    heading: 'Choose a new password',
    intro:
      'Setting it signs out every session of the account. Its API keys keep working unless you choose to revoke them too.',
    submitLabel: 'Set new password',
    extra: [keys.field],
    async send(token, password) {
      const revokeKeys = keys.input.checked;
      await ok(resetPassword({ client, body: { token, new_password: password, revoke_api_keys: revokeKeys } }), {
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
    describe: linkProblem,
  });
}
