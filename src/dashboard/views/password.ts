// Change the password: the current one, the new one twice. Every other session ends; API keys
// keep working unless the person asks for them to go too.
import { changePassword } from '../../../generated/sdk.gen.ts';
import { ApiFailure, client, explain, ok } from '../api.ts';
import { field, h, show } from '../dom.ts';
import { revokeKeysChoice } from './revoke-keys.ts';

export function renderPassword(view: HTMLElement): void {
  const current = h('input', {
    id: 'current-password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    maxlength: 1024,
  });
  const next = h('input', {
    id: 'new-password',
    type: 'password',
    autocomplete: 'new-password',
    required: true,
    minlength: 8,
    maxlength: 1024,
  });
  const again = h('input', {
    id: 'new-password-again',
    type: 'password',
    autocomplete: 'new-password',
    required: true,
    minlength: 8,
    maxlength: 1024,
  });
  const keys = revokeKeysChoice('password-revoke-keys');
  const submit = h('button', { type: 'submit' }, 'Change password');
  const message = h('p', { id: 'password-message', role: 'status' });
  const form = h(
    'form',
    { method: 'post' },
    field('Current password', current),
    field('New password', next, '8 to 1024 characters.'),
    field('New password again', again),
    keys.field,
    submit,
    message,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.className = '';
    if (next.value !== again.value) {
      message.className = 'error';
      message.textContent = 'The two new passwords differ.';
      again.focus();
      return;
    }
    submit.disabled = true;
    try {
      const revokeKeys = keys.input.checked;
      await ok(
        changePassword({
          client,
          body: { current_password: current.value, new_password: next.value, revoke_api_keys: revokeKeys },
        }),
      );
      form.reset();
      message.textContent = revokeKeys
        ? 'Your password is changed. Every other session and every API key was revoked; this one stays signed in.'
        : 'Your password is changed. Every other session was signed out; your API keys keep working, and this session stays signed in.';
    } catch (failure) {
      message.className = 'error';
      message.textContent =
        failure instanceof ApiFailure && failure.status === 403
          ? 'The current password is not right. Nothing changed.'
          : explain(failure);
    } finally {
      submit.disabled = false;
    }
  });
  show(
    view,
    h('h1', {}, 'Change password'),
    h(
      'p',
      {},
      'Changing the password signs out every other session. Your API keys keep working unless you choose to revoke them too. We e-mail you a confirmation that lists your keys.',
    ),
    form,
  );
}
