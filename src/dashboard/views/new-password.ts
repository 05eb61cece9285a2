// Two password fields that must agree, for sign-up, reset and invitation forms.
import { field, h } from '../dom.ts';

export function newPasswordFields(prefix: string): {
  readonly fields: HTMLElement[];
  readonly first: HTMLInputElement;
  /** The password, or null (and the second field marked and focused) when the two differ. */
  value(): string | null;
} {
  const attributes = { type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 1024 };
  const first = h('input', { id: `${prefix}-password`, name: 'password', ...attributes });
  const again = h('input', { id: `${prefix}-password-again`, ...attributes });
  return {
    fields: [field('Password', first, '8 to 1024 characters.'), field('Password again', again)],
    first,
    value() {
      if (first.value === again.value) {
        again.setCustomValidity('');
        return first.value;
      }
      again.focus();
      return null;
    },
  };
}
