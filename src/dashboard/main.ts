// The dashboard's entry point (bundled by src/http/routes/dashboard-assets.ts): sign-in, then one view
// per hash (#account, #keys, #try, #history, #password), all through the generated API client.
import './zod-setup.ts';
import { revokeCurrentToken } from '../../generated/sdk.gen.ts';
import { client, whenSessionEnds } from './api.ts';
import { byId } from './dom.ts';
import { clearSession, loadSession, type Session } from './session.ts';
import { renderAccount } from './views/account.ts';
import { renderHistory } from './views/history.ts';
import { renderKeys } from './views/keys.ts';
import { renderPassword } from './views/password.ts';
import { renderSignIn } from './views/signin.ts';
import { renderTryIt } from './views/try-it.ts';
import { appendAccountLinks } from './views/account-links.ts';
import { renderInvitation } from './views/invitation.ts';
import { renderForgot, renderReset } from './views/recover.ts';
import { renderConfirm, renderSignUp } from './views/signup.ts';

const VIEWS: Record<string, { title: string; render: (view: HTMLElement) => void | Promise<void> }> = {
  account: { title: 'Account', render: renderAccount },
  keys: { title: 'API keys', render: renderKeys },
  try: { title: 'Try it', render: renderTryIt },
  history: { title: 'History', render: renderHistory },
  password: { title: 'Password', render: renderPassword },
};

const view = byId('view');
const nav = byId('nav');
const who = byId('who');

const toAccount = () => {
  if (location.hash !== '#account') location.hash = '#account';
  else route(true);
};

function signedOut(notice?: string): void {
  clearSession();
  hideSignedIn();
  document.title = 'Sign in · School Search API';
  renderSignIn(view, notice, toAccount);
  void appendAccountLinks(view);
}

function hideSignedIn(): void {
  nav.hidden = true;
  who.hidden = true;
}

/**
 * The pages for people without a session: sign up and "forgot", and those that links in e-mails
 * open (#confirm/…, #reset/…, #invitation/…), which work whoever is signed in in this tab.
 */
const PUBLIC: Record<string, { title: string; link: boolean; render: () => void }> = {
  signup: { title: 'Create an account', link: false, render: () => renderSignUp(view) },
  forgot: { title: 'Forgot your password?', link: false, render: () => renderForgot(view) },
  confirm: { title: 'Confirm your account', link: true, render: () => renderConfirm(view, toAccount) },
  reset: {
    title: 'Choose a new password',
    link: true,
    render: () =>
      renderReset(view, (notice) => {
        history.replaceState(null, '', `${location.pathname}#signin`);
        signedOut(notice);
      }),
  },
  invitation: { title: 'Accept your invitation', link: true, render: () => renderInvitation(view, toAccount) },
};

function publicRoute(signedIn: boolean): boolean {
  const page = PUBLIC[/^#([a-z]+)/.exec(location.hash)?.[1] ?? ''];
  if (!page || (signedIn && !page.link)) return false;
  hideSignedIn();
  document.title = `${page.title} · School Search API`;
  page.render();
  return true;
}

function route(moveFocus: boolean): void {
  const session = loadSession();
  if (publicRoute(session !== null)) return;
  if (!session) {
    signedOut();
    return;
  }
  signedIn(session);
  // #try/<token_id> names a key within the view.
  const name = location.hash.slice(1).split('/')[0]!;
  const current = VIEWS[name] ? name : 'account';
  for (const link of nav.querySelectorAll('a')) {
    if (link.getAttribute('href') === `#${current}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${VIEWS[current]!.title} · School Search dashboard`;
  void VIEWS[current]!.render(view);
  // After a click in the navigation, the reader lands on the new view, not back at the top.
  if (moveFocus) view.focus();
}

function signedIn(session: Session): void {
  nav.hidden = false;
  who.hidden = false;
  byId('who-email').textContent = session.email;
}

byId('sign-out').addEventListener('click', async () => {
  // Revoke the token on the server; an already dead token is as signed out as it gets.
  await revokeCurrentToken({ client }).catch(() => undefined);
  signedOut('You are signed out.');
});

whenSessionEnds(() => signedOut('Your session has ended (it expired or was revoked). Sign in again.'));
window.addEventListener('hashchange', () => route(true));
route(false);
