// Sign up with an e-mail address (POST /v1/signup), then, from the e-mailed link, choose the
// password (POST /v1/signup/confirm), which makes the account and signs in. The answer to a
// sign-up is the same for every address, so the page says only that an e-mail is on its way.
import { confirmSignUp, fetchMyData, signUp } from '../../../generated/sdk.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { h } from '../dom.ts';
import { saveSession, type Session } from '../session.ts';
import { renderLinkForm } from './link-form.ts';
import { takeLinkToken } from './link-token.ts';
import { renderMailForm } from './mail-form.ts';

export function renderSignUp(view: HTMLElement): void {
  renderMailForm(view, {
    prefix: 'signup',
    heading: 'Create an account',
    intro: 'We send a link to your e-mail address; you choose your password when you open it.',
    send: (email) => ok(signUp({ client, body: { email } }), { ending: false }),
    sent: (email) =>
      `An e-mail is on its way to ${email}. Open its link within 24 hours to choose your password: the account exists once you do.`,
    describe: signUpProblem,
    after: h('p', {}, 'Have an account? ', h('a', { href: '#signin' }, 'Sign in')),
  });
}

export function renderConfirm(view: HTMLElement, signedIn: (session: Session) => void): void {
  renderLinkForm(view, {
    prefix: 'confirm',
    token: takeLinkToken('confirm'),
    heading: 'Confirm your account',
    intro: 'Choose the password of your new School Search API account.',
    submitLabel: 'Create account and sign in',
    async send(token, password) {
      const issued = await ok(confirmSignUp({ client, body: { token, password } }), { ending: false });
      const session = await sessionOf(issued);
      saveSession(session);
      signedIn(session);
    },
    describe: (failure) =>
      // A link sent when sign-up still asked for the password: that one confirms it.
      failure instanceof ApiFailure && failure.status === 401
        ? 'This link was sent when sign-up asked for a password: enter the one you chose then, twice.'
        : linkProblem(failure),
  });
}

/** A session for a token from a link (the e-mail is read back, since the link does not show it). */
export async function sessionOf(issued: { token: string; token_id: string; expires_at: string }): Promise<Session> {
  const session = { token: issued.token, tokenId: issued.token_id, expiresAt: issued.expires_at, email: '' };
  // Saved first: the client sends the saved session's token.
  saveSession(session);
  const me = await ok(fetchMyData({ client }));
  return { ...session, email: me.email };
}

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
