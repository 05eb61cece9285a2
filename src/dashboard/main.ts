// The dashboard's entry point (bundled by src/http/routes/dashboard.assets.ts): sign-in, then one view
// per hash (#account, #keys, #history, #password), all through the generated API client.
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

const VIEWS: Record<string, { title: string; render: (view: HTMLElement) => void | Promise<void> }> = {
  account: { title: 'Account', render: renderAccount },
  keys: { title: 'API keys', render: renderKeys },
  history: { title: 'History', render: renderHistory },
  password: { title: 'Password', render: renderPassword },
};

const view = byId('view');
const nav = byId('nav');
const who = byId('who');

function signedOut(notice?: string): void {
  clearSession();
  nav.hidden = true;
  who.hidden = true;
  document.title = 'Sign in · School Search API';
  renderSignIn(view, notice, () => {
    if (location.hash !== '#account') location.hash = '#account';
    else route(true);
  });
}

function route(moveFocus: boolean): void {
  const session = loadSession();
  if (!session) {
    signedOut();
    return;
  }
  signedIn(session);
  const name = location.hash.slice(1);
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
