// A confirmation in a modal <dialog>: focus moves into it and back, Escape cancels.
import { h } from './dom.ts';

export function confirmAction(title: string, text: string, confirmLabel: string): Promise<boolean> {
  const opener = document.activeElement as HTMLElement | null;
  return new Promise((resolve) => {
    const cancel = h('button', { type: 'button', value: 'cancel', autofocus: true }, 'Cancel');
    const confirm = h('button', { type: 'button', value: 'confirm', class: 'danger' }, confirmLabel);
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'dialog-title', 'aria-describedby': 'dialog-text' },
      h('h2', { id: 'dialog-title' }, title),
      h('p', { id: 'dialog-text' }, text),
      h('div', { class: 'actions' }, cancel, confirm),
    );
    cancel.addEventListener('click', () => dialog.close('cancel'));
    confirm.addEventListener('click', () => dialog.close('confirm'));
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener?.focus();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/**
 * Like confirmAction, with the account's password asked in the dialog: resolves to the password
 * typed, or undefined when cancelled. For actions the API confirms with the current password.
 */
export function confirmWithPassword(title: string, text: string, confirmLabel: string): Promise<string | undefined> {
  const opener = document.activeElement as HTMLElement | null;
  return new Promise((resolve) => {
    const password = h('input', {
      id: 'dialog-password',
      type: 'password',
      required: true,
      autocomplete: 'current-password',
    });
    const cancel = h('button', { type: 'button', value: 'cancel' }, 'Cancel');
    const confirm = h('button', { type: 'submit', value: 'confirm', class: 'danger' }, confirmLabel);
    const form = h(
      'form',
      { method: 'dialog' },
      h('div', { class: 'field' }, h('label', { for: 'dialog-password' }, 'Your password'), password),
      h('div', { class: 'actions' }, cancel, confirm),
    );
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'dialog-title', 'aria-describedby': 'dialog-text' },
      h('h2', { id: 'dialog-title' }, title),
      h('p', { id: 'dialog-text' }, text),
      form,
    );
    cancel.addEventListener('click', () => dialog.close('cancel'));
    dialog.addEventListener('close', () => {
      const typed = password.value;
      dialog.remove();
      opener?.focus();
      resolve(dialog.returnValue === 'confirm' && typed !== '' ? typed : undefined);
    });
    document.body.append(dialog);
    dialog.showModal();
    password.focus();
  });
}

/**
 * A form in a modal dialog: `save` runs on submit; what it throws is said in the dialog (as
 * `describe` words it), which stays open so the person can correct it. Resolves to whether it saved.
 */
export function formDialog(
  title: string,
  fields: readonly HTMLElement[],
  confirmLabel: string,
  save: () => Promise<void>,
  describe: (failure: unknown) => string,
): Promise<boolean> {
  const opener = document.activeElement as HTMLElement | null;
  return new Promise((resolve) => {
    let saved = false;
    const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
    const confirm = h('button', { type: 'submit' }, confirmLabel);
    const error = h('p', { class: 'error', role: 'alert' });
    const form = h('form', { method: 'dialog' }, ...fields, error, h('div', { class: 'actions' }, cancel, confirm));
    const dialog = h('dialog', { 'aria-labelledby': 'dialog-title' }, h('h2', { id: 'dialog-title' }, title), form);
    cancel.addEventListener('click', () => dialog.close());
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.textContent = '';
      confirm.disabled = true;
      try {
        await save();
        saved = true;
        dialog.close();
      } catch (failure) {
        error.textContent = describe(failure);
      } finally {
        confirm.disabled = false;
      }
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener?.focus();
      resolve(saved);
    });
    document.body.append(dialog);
    dialog.showModal();
    form.querySelector<HTMLElement>('input, textarea')?.focus();
  });
}
