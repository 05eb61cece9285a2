// Building the page without HTML strings: every text goes in as a text node, so nothing a user
// or the API wrote can become markup (and the page's Trusted Types policy forbids HTML sinks).
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

const SVG = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG, tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(element: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
}

/** Replaces what `parent` holds. */
export function show(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A labelled form field: the label's `for` names the input, as screen readers need. */
export function field(
  label: string,
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  hint?: string,
): HTMLElement {
  const hintId = hint ? `${input.id}-hint` : undefined;
  if (hintId) input.setAttribute('aria-describedby', hintId);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: input.id }, label),
    input,
    hint ? h('p', { id: hintId, class: 'hint' }, hint) : null,
  );
}

/** A checkbox with its label after it, and a hint it is described by. */
export function checkbox(
  id: string,
  label: string,
  hint: string,
): { readonly field: HTMLElement; readonly input: HTMLInputElement } {
  const input = h('input', { id, type: 'checkbox', 'aria-describedby': `${id}-hint` });
  return {
    input,
    field: h(
      'div',
      { class: 'field checkbox' },
      input,
      h('label', { for: id }, label),
      h('p', { id: `${id}-hint`, class: 'hint' }, hint),
    ),
  };
}

/** A table that scrolls sideways on a narrow screen instead of widening the page. */
export function table(
  caption: string,
  headings: string[],
  rows: Node[],
  options: { captionHidden?: boolean } = {},
): HTMLElement {
  // Each cell names its column, so that a narrow screen can show a row as a card of labelled
  // lines (dashboard.css) instead of a table that scrolls its actions off to the side.
  // Explicit roles: some browsers drop a table's semantics once CSS changes its display.
  for (const row of rows) {
    if (!(row instanceof HTMLElement)) continue;
    row.setAttribute('role', 'row');
    [...row.children].forEach((cell, i) => {
      const heading = headings[i];
      if (heading) cell.setAttribute('data-label', heading);
      cell.setAttribute('role', cell.tagName === 'TH' ? 'rowheader' : 'cell');
    });
  }
  return h(
    'div',
    { class: 'scroll', role: 'region', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      { class: 'cards', role: 'table' },
      h('caption', options.captionHidden ? { class: 'visually-hidden' } : {}, caption),
      h(
        'thead',
        { role: 'rowgroup' },
        h(
          'tr',
          { role: 'row' },
          ...headings.map((heading) => h('th', { scope: 'col', role: 'columnheader' }, heading)),
        ),
      ),
      h('tbody', { role: 'rowgroup' }, ...rows),
    ),
  );
}

/**
 * Runs `action` when the form is submitted: the error cleared and the button disabled meanwhile;
 * what `action` throws is shown in `error` as `describe` says it.
 */
export function onSubmit(
  form: HTMLFormElement,
  parts: { readonly submit: HTMLButtonElement; readonly error: HTMLElement },
  action: () => Promise<void>,
  describe: (failure: unknown) => string,
): void {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    parts.error.textContent = '';
    parts.submit.disabled = true;
    try {
      await action();
    } catch (failure) {
      parts.error.textContent = describe(failure);
    } finally {
      parts.submit.disabled = false;
    }
  });
}

/** A block of text to copy (a snippet), with its Copy button and a status saying it is copied. */
export function copyBlock(id: string, label: string, text: string): HTMLElement {
  const copy = h('button', { type: 'button', class: 'secondary', 'aria-label': `Copy ${label}` }, 'Copy');
  const copied = h('span', { role: 'status', class: 'copied' });
  const code = h('code', { id }, text);
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      copied.textContent = 'Copied.';
    } catch {
      getSelection()?.selectAllChildren(code);
      copied.textContent = 'Press Ctrl+C (⌘C) to copy the selected text.';
    }
  });
  return h(
    'figure',
    { class: 'snippet' },
    h('figcaption', {}, h('span', {}, label), copy),
    h('pre', { tabindex: 0, 'aria-label': label }, code),
    copied,
  );
}
