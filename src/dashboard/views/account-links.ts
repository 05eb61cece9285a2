// Under the sign-in form: "Create an account" and "Forgot your password?", as the server offers
// them (GET /v1/signup). Nothing is shown while it is unknown, or when the server offers neither.
import { getSignUpOptions } from '../../../generated/sdk.gen.ts';
import { client, ok } from '../api.ts';
import { h } from '../dom.ts';

export async function appendAccountLinks(view: HTMLElement): Promise<void> {
  const options = await ok(getSignUpOptions({ client }), { ending: false }).catch(() => undefined);
  if (!options || !view.isConnected) return;
  const items = [
    options.signup === 'open' ? h('li', {}, h('a', { href: '#signup' }, 'Create an account')) : null,
    options.password_reset ? h('li', {}, h('a', { href: '#forgot' }, 'Forgot your password?')) : null,
  ].filter((item) => item !== null);
  if (items.length > 0) view.append(h('ul', { class: 'account-links' }, ...items));
}
