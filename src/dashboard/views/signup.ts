// Sign up with an e-mail address (POST /v1/signup), then, from the e-mailed link, choose the
// password (POST /v1/signup/confirm), which makes the account and signs in. The answer to a
// sign-up is the same for every address, so the page says only that an e-mail is on its way.
import { confirmSignUp, fetchMyData, signUp } from '../../../generated/sdk.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { field, h, onSubmit, show } from '../dom.ts';
import { saveSession, type Session } from '../session.ts';
import { takeLinkToken } from './link-token.ts';
import { newPasswordFields } from './new-password.ts';

export function renderSignUp(view: HTMLElement): void {
  const email = h('input', {
    id: 'signup-email',
    name: 'email',
    type: 'email',
    autocomplete: 'username',
    required: true,
    maxlength: 254,
  });
  const submit = h('button', { type: 'submit' }, 'Send me a link');
  const error = h('p', { id: 'signup-error', class: 'error', role: 'alert' });
  const form = h('form', { method: 'post', 'aria-describedby': 'signup-error' }, field('E-mail', email), submit, error);
  onSubmit(
    form,
    { submit, error },
    async () => {
      await ok(signUp({ client, body: { email: email.value.trim() } }), { ending: false });
      show(
        view,
        h('h1', {}, 'Check your e-mail'),
        h(
          'p',
          { class: 'notice', role: 'status' },
          `An e-mail is on its way to ${email.value.trim()}. Open its link within 24 hours to choose your password: the account exists once you do.`,
        ),
        h('p', {}, h('a', { href: '#signin' }, 'Back to sign in')),
      );
    },
    signUpProblem,
  );
  show(
    view,
    h('h1', {}, 'Create an account'),
    h('p', {}, 'We send a link to your e-mail address; you choose your password when you open it.'),
    form,
    h('p', {}, 'Have an account? ', h('a', { href: '#signin' }, 'Sign in')),
  );
  email.focus();
}

export function renderConfirm(view: HTMLElement, signedIn: (session: Session) => void): void {
  const token = takeLinkToken('confirm');
  const password = newPasswordFields('confirm');
  const submit = h('button', { type: 'submit' }, 'Create account and sign in');
  const error = h('p', { id: 'confirm-error', class: 'error', role: 'alert' });
  const form = h('form', { method: 'post', 'aria-describedby': 'confirm-error' }, ...password.fields, submit, error);
  onSubmit(
    form,
    { submit, error },
    async () => {
      const chosen = password.value();
      if (chosen === null) throw new Mismatch();
      if (!token) throw new ApiFailure(410, undefined, null);
      const issued = await ok(confirmSignUp({ client, body: { token, password: chosen } }), { ending: false });
      const session = await sessionOf(issued);
      saveSession(session);
      signedIn(session);
    },
    (failure) => {
      if (failure instanceof Mismatch) return 'The two passwords differ.';
      // A link sent when sign-up still asked for the password: that one confirms it.
      if (failure instanceof ApiFailure && failure.status === 401)
        return 'This link was sent when sign-up asked for a password: enter the one you chose then, twice.';
      return linkProblem(failure);
    },
  );
  show(
    view,
    h('h1', {}, 'Confirm your account'),
    h('p', {}, 'Choose the password of your new School Search API account.'),
    form,
  );
  password.first.focus();
}

/** A session for a token from a link (the e-mail is read back, since the link does not show it). */
export async function sessionOf(issued: { token: string; token_id: string; expires_at: string }): Promise<Session> {
  const session = { token: issued.token, tokenId: issued.token_id, expiresAt: issued.expires_at, email: '' };
  // Saved first: the client sends the saved session's token.
  saveSession(session);
  const me = await ok(fetchMyData({ client }));
  return { ...session, email: me.email };
}

class Mismatch extends Error {}

function signUpProblem(failure: unknown): string {
  if (failure instanceof ApiFailure && failure.status === 403)
    return 'Sign-up is closed on this server. Ask its operator for an account.';
  if (failure instanceof ApiFailure && failure.status === 400) return 'Enter a valid e-mail address.';
  if (failure instanceof ApiFailure && failure.status === 503) {
    return 'Your sign-up is saved, but the e-mail could not be sent yet. It is sent again automatically: check your mail in a few minutes.';
  }
  return explain(failure);
}

export function linkProblem(failure: unknown): string {
  if (failure instanceof ApiFailure && failure.status === 410) {
    return 'This link cannot be used: it was used already, it expired, or it was copied incompletely. Ask for a new one.';
  }
  if (failure instanceof ApiFailure && failure.status === 403)
    return 'This server does not take sign-ups of this kind.';
  if (failure instanceof ApiFailure && failure.status === 400) return 'Enter a password of 8 to 1024 characters.';
  return explain(failure);
}
