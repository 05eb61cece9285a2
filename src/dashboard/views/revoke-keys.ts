// The "also revoke every API key" choice of a password change or reset: keys are what programs
// run on, so they keep working unless the person asks (someone else may know the password).
import { checkbox } from '../dom.ts';

export function revokeKeysChoice(id: string): { readonly field: HTMLElement; readonly input: HTMLInputElement } {
  return checkbox(
    id,
    'Also revoke every API key',
    'Choose this if someone else may know (or have known) the password: a key made with it would keep working. Programs using your keys stop until you give them new ones.',
  );
}
