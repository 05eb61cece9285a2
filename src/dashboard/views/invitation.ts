// Accept an operator's invitation (POST /v1/invitations/accept): choose a password, and the
// account exists and is signed in.
import { acceptInvitation } from '../../../generated/sdk.gen.ts';
import { ApiFailure, client, ok } from '../api.ts';
import { h, onSubmit, show } from '../dom.ts';
import { type Session, saveSession } from '../session.ts';
import { takeLinkToken } from './link-token.ts';
import { newPasswordFields } from './new-password.ts';
import { linkProblem, sessionOf } from './signup.ts';

export function renderInvitation(view: HTMLElement, signedIn: (session: Session) => void): void {
  const token = takeLinkToken('invitation');
  const password = newPasswordFields('invitation');
  const submit = h('button', { type: 'submit' }, 'Create account');
  const error = h('p', { id: 'invitation-error', class: 'error', role: 'alert' });
  const form = h('form', { method: 'post', 'aria-describedby': 'invitation-error' }, ...password.fields, submit, error);
  let mismatch = false;
  onSubmit(
    form,
    { submit, error },
    async () => {
      const chosen = password.value();
      mismatch = chosen === null;
      if (chosen === null) throw new Error('mismatch');
      if (!token) throw new ApiFailure(410, undefined, null);
      const issued = await ok(acceptInvitation({ client, body: { token, password: chosen } }), { ending: false });
      const session = await sessionOf(issued);
      saveSession(session);
      signedIn(session);
    },
    (failure) => (mismatch ? 'The two passwords differ.' : linkProblem(failure)),
  );
  show(
    view,
    h('h1', {}, 'Accept your invitation'),
    h('p', {}, 'Choose the password of your new School Search API account.'),
    form,
  );
  password.first.focus();
}
