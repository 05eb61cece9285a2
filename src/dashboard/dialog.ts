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
