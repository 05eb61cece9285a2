// Sign in with e-mail and password: POST /v1/auth, the same operation every client uses.
import { createToken } from '../../../generated/sdk.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { field, h, onSubmit, show } from '../dom.ts';
import { saveSession, type Session } from '../session.ts';

export function renderSignIn(
  view: HTMLElement,
  notice: string | undefined,
  signedIn: (session: Session) => void,
): void {
  const email = h('input', {
    id: 'email',
    name: 'email',
    type: 'email',
    autocomplete: 'username',
    required: true,
    maxlength: 254,
  });
  const password = h('input', {
    id: 'password',
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    maxlength: 1024,
  });
  const submit = h('button', { type: 'submit' }, 'Sign in');
  const error = h('p', { id: 'sign-in-error', class: 'error', role: 'alert' });
  const form = h(
    'form',
    { method: 'post', 'aria-describedby': 'sign-in-error' },
    field('E-mail', email),
    field('Password', password),
    submit,
    error,
  );
  onSubmit(
    form,
    { submit, error },
    async () => {
      const token = await ok(createToken({ client, body: { email: email.value.trim(), password: password.value } }), {
        ending: false,
      });
      const session = {
        token: token.token,
        tokenId: token.token_id,
        expiresAt: token.expires_at,
        email: email.value.trim().toLowerCase(),
      };
      saveSession(session);
      signedIn(session);
    },
    (failure) => {
      password.select();
      return signInProblem(failure);
    },
  );
  show(
    view,
    h('h1', {}, 'Sign in'),
    notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
    h(
      'p',
      {},
      'Sign in with the e-mail and password of your School Search API account to see your usage and history and to manage your API keys.',
    ),
    form,
  );
  email.focus();
}

function signInProblem(failure: unknown): string {
  if (failure instanceof ApiFailure && failure.status === 401) return 'The e-mail or the password is not right.';
  if (failure instanceof ApiFailure && failure.status === 400) return 'Enter a valid e-mail address and your password.';
  return explain(failure);
}
