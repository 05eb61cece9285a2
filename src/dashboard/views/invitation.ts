// Accept an operator's invitation (POST /v1/invitations/accept): choose a password, and the
// account exists and is signed in.
import { acceptInvitation } from '../../../generated/sdk.gen.ts';
import { client, ok } from '../api.ts';
import { type Session, saveSession } from '../session.ts';
import { takeLinkToken } from './link-token.ts';
import { renderLinkForm } from './link-form.ts';
import { linkProblem, sessionOf } from './signup.ts';

export function renderInvitation(view: HTMLElement, signedIn: (session: Session) => void): void {
  renderLinkForm(view, {
    prefix: 'invitation',
    token: takeLinkToken('invitation'),
    heading: 'Accept your invitation',
    intro: 'Choose the password of your new School Search API account.',
    submitLabel: 'Create account',
    async send(token, password) {
      const issued = await ok(acceptInvitation({ client, body: { token, password } }), { ending: false });
      const session = await sessionOf(issued);
      saveSession(session);
      signedIn(session);
    },
    describe: linkProblem,
  });
}
