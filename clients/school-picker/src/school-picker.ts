// <school-picker>: a school field for any page. A WAI-ARIA 1.2 combobox (an input that controls
// a listbox, the option under the keyboard named by aria-activedescendant, so the focus never
// leaves the input), over GET /v1/fetchSchoolSearch with a publishable key. It is a
// form-associated custom element: inside a <form> the chosen school's id is the value of its
// `name`, through ElementInternals, or a hidden input beside it where a browser has none.
//
// The DOM is built with createElement and textContent only, never from HTML strings: a school's
// name can never become markup, and a page with Trusted Types enforced (the dashboard) runs it.
import { type PickedSchool, schoolDetail } from './labels.ts';
import { type Answer, readSchool, schoolUrl, type SearchOptions, searchSchools, searchUrl } from './search.ts';
import { STYLES } from './styles.ts';
import type { School } from '../../../generated/types.gen.ts';

/** What `school-select` carries: the school's id and the whole result record the list showed. */
export interface SchoolSelectDetail {
  readonly id: string;
  readonly school: PickedSchool;
}

const DEFAULT_DEBOUNCE_MS = 150;
const DEFAULT_LIMIT = 8;
/** The contract's page size bounds (SearchResult.limit). */
const MAX_LIMIT = 25;

/** The API this script was served by: /picker/v1/school-picker.js is two levels below its root. */
const OWN_API = new URL('../../', import.meta.url).href;

let sheet: CSSStyleSheet | undefined;
function styles(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
  }
  return sheet;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** A list attribute: `level="middle high"` or `level="middle,high"`. */
function list(value: string | null): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

export class SchoolPicker extends HTMLElement {
  static readonly formAssociated = true;
  static readonly observedAttributes = ['label', 'placeholder', 'required', 'disabled', 'name', 'value', 'key', 'api'];

  readonly #internals: ElementInternals | undefined;
  /** Where ElementInternals cannot carry a form value: a hidden input in the light DOM. */
  #fallback: HTMLInputElement | undefined;
  readonly #label = element('label', { part: 'label', for: 'input' });
  readonly #input = element('input', {
    part: 'input',
    id: 'input',
    type: 'text',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': 'listbox',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    enterkeyhint: 'search',
  });
  readonly #listbox = element('ul', { part: 'listbox', id: 'listbox', role: 'listbox' });
  readonly #status = element('div', { part: 'status', class: 'status', role: 'status', 'aria-live': 'polite' });

  #results: readonly School[] = [];
  /** The text the listed results answer. */
  #queryShown = '';
  #active = -1;
  #value = '';
  #school: PickedSchool | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #controller: AbortController | undefined;
  /** The number of the latest search: an answer to an earlier one is never shown. */
  #latest = 0;
  #position: Promise<string | undefined> | undefined;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
    root.adoptedStyleSheets = [styles()];
    const internals = typeof this.attachInternals === 'function' ? this.attachInternals() : undefined;
    this.#internals = typeof internals?.setFormValue === 'function' ? internals : undefined;
    this.#listbox.hidden = true;
    const field = element('div', { class: 'field' });
    field.append(this.#input, this.#listbox);
    root.append(this.#label, field, this.#status);

    this.#input.addEventListener('input', () => this.#typed());
    this.#input.addEventListener('keydown', (event) => this.#key(event));
    this.#input.addEventListener('blur', () => this.#close());
    // A press on an option keeps the focus in the input; the click then chooses it.
    this.#listbox.addEventListener('pointerdown', (event) => event.preventDefault());
    this.#listbox.addEventListener('click', (event) => {
      const option = (event.target as Element).closest('[role="option"]');
      if (option) this.#choose(Number(option.getAttribute('data-index')));
    });
  }

  connectedCallback(): void {
    this.#render();
    if (!this.#internals && !this.#fallback) {
      this.#fallback = element('input', { type: 'hidden' });
      this.append(this.#fallback);
    }
    this.#syncForm();
    const initial = this.getAttribute('value');
    if (initial && !this.#value) this.#show(initial);
  }

  disconnectedCallback(): void {
    this.#cancel();
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (!this.isConnected || old === value) return;
    if (name === 'value') {
      if ((value ?? '') !== this.#value) value ? this.#show(value) : this.#clear();
    } else if (name === 'key' || name === 'api') {
      // Results of another key or API are not this picker's any more.
      this.#cancel();
      this.#close();
    }
    this.#render();
    this.#syncForm();
  }

  // --- the element's properties, as a form control's -------------------------------------------

  /** The chosen school's id, or '' when none is chosen. */
  get value(): string {
    return this.#value;
  }
  set value(id: string) {
    id ? this.#show(String(id)) : this.#clear();
  }
  /** The chosen school's record (a search result, or the school's record for a `value` given). */
  get school(): PickedSchool | undefined {
    return this.#school;
  }
  get form(): HTMLFormElement | null {
    return this.#internals?.form ?? this.closest('form');
  }
  get validity(): ValidityState | undefined {
    return this.#internals?.validity;
  }
  get validationMessage(): string {
    return this.#internals?.validationMessage ?? '';
  }
  checkValidity(): boolean {
    return this.#internals?.checkValidity() ?? true;
  }
  reportValidity(): boolean {
    return this.#internals?.reportValidity() ?? true;
  }
  formResetCallback(): void {
    const initial = this.getAttribute('value');
    initial ? this.#show(initial) : this.#clear();
  }
  formDisabledCallback(disabled: boolean): void {
    this.#input.disabled = disabled;
  }
  formStateRestoreCallback(state: unknown): void {
    if (typeof state === 'string' && state) this.#show(state);
  }

  // --- attributes ----------------------------------------------------------------------------------

  #options(): SearchOptions {
    const api = this.getAttribute('api') || OWN_API;
    const limit = Math.trunc(Number(this.getAttribute('limit') ?? DEFAULT_LIMIT));
    return {
      api: new URL(api.endsWith('/') ? api : `${api}/`, document.baseURI).href,
      key: this.getAttribute('key') ?? undefined,
      stateCode: this.getAttribute('state-code') ?? undefined,
      levels: list(this.getAttribute('level')),
      types: list(this.getAttribute('type')),
      near: undefined,
      limit: Number.isFinite(limit) ? Math.min(Math.max(limit, 1), MAX_LIMIT) : DEFAULT_LIMIT,
    };
  }

  #number(name: string, fallback: number): number {
    const value = Number(this.getAttribute(name) ?? Number.NaN);
    return Number.isFinite(value) && value >= 0 ? value : fallback;
  }

  #render(): void {
    this.#label.textContent = this.getAttribute('label') ?? 'School';
    this.#listbox.setAttribute('aria-label', `${this.#label.textContent} suggestions`);
    const placeholder = this.getAttribute('placeholder');
    if (placeholder === null) this.#input.removeAttribute('placeholder');
    else this.#input.placeholder = placeholder;
    // Announced as required by the input itself; the form's check is the element's (setValidity).
    this.#input.required = this.hasAttribute('required');
    this.#input.disabled = this.hasAttribute('disabled');
  }

  /** The form's value, and whether it is missing. */
  #syncForm(): void {
    const name = this.getAttribute('name');
    if (this.#fallback) {
      if (name === null) this.#fallback.removeAttribute('name');
      else this.#fallback.name = name;
      this.#fallback.value = this.#value;
    }
    if (!this.#internals) return;
    this.#internals.setFormValue(this.#value, this.#value);
    if (this.hasAttribute('required') && !this.#value) {
      this.#internals.setValidity({ valueMissing: true }, 'Choose a school from the list.', this.#input);
    } else {
      this.#internals.setValidity({});
    }
  }

  // --- searching -----------------------------------------------------------------------------------

  #typed(): void {
    if (this.#value) this.#set('', undefined);
    clearTimeout(this.#timer);
    const query = this.#input.value;
    if (query.trim().length < Math.max(1, this.#number('min-chars', 1))) {
      this.#cancel();
      this.#close();
      this.#say('');
      return;
    }
    this.#timer = setTimeout(() => void this.#search(query), this.#number('debounce', DEFAULT_DEBOUNCE_MS));
  }

  /** Stops the pending search, and the request in flight: its answer is no one's any more. */
  #cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#controller?.abort();
    this.#controller = undefined;
    this.#latest++;
  }

  async #search(query: string, then?: () => void): Promise<void> {
    this.#cancel();
    const number = this.#latest;
    const controller = new AbortController();
    this.#controller = controller;
    const near = await this.#near();
    if (number !== this.#latest) return;
    let answer: Answer<{ schools: School[]; total_count: number }>;
    try {
      answer = await searchSchools(searchUrl(query, { ...this.#options(), near }), controller.signal);
    } catch {
      return; // aborted: a later search took its place
    }
    // An answer that overtook a later search's (or arrived after the field changed) is dropped.
    if (number !== this.#latest) return;
    this.#controller = undefined;
    if (!answer.ok) {
      this.#results = [];
      this.#queryShown = '';
      this.#close();
      this.#say(answer.message, true);
      return;
    }
    const { schools, total_count: total } = answer.value;
    this.#results = schools;
    this.#queryShown = query;
    this.#fill();
    if (schools.length === 0) {
      this.#close();
      this.#say(`No schools match “${query.trim()}”.`);
      return;
    }
    this.#open();
    this.#say(
      total > schools.length
        ? `${total} schools found, the first ${schools.length} shown. Use the arrow keys to choose.`
        : `${total} school${total === 1 ? '' : 's'} found. Use the arrow keys to choose.`,
    );
    then?.();
  }

  /** `near="lat,lon"` as given; `near="me"` or `locate`: the browser's position, asked once. */
  #near(): Promise<string | undefined> {
    const near = this.getAttribute('near');
    if (near !== 'me' && !this.hasAttribute('locate')) return Promise.resolve(near || undefined);
    this.#position ??= new Promise((resolve) => {
      if (!navigator.geolocation) return resolve(undefined);
      navigator.geolocation.getCurrentPosition(
        ({ coords }) => resolve(`${coords.latitude.toFixed(4)},${coords.longitude.toFixed(4)}`),
        () => resolve(undefined),
        { maximumAge: 600_000, timeout: 10_000 },
      );
    });
    return this.#position;
  }

  /** A `value` given by the page (or a restored form): the school's record, to show its name. */
  async #show(id: string): Promise<void> {
    this.#cancel();
    this.#close();
    this.#set(id, undefined, false);
    const number = this.#latest;
    const controller = new AbortController();
    this.#controller = controller;
    let answer: Answer<PickedSchool>;
    try {
      answer = await readSchool(schoolUrl(id, this.#options()), controller.signal);
    } catch {
      return;
    }
    if (number !== this.#latest || this.#value !== id) return;
    if (!answer.ok) {
      this.#say(answer.message, true);
      return;
    }
    this.#school = answer.value;
    this.#input.value = answer.value.schoolname;
  }

  // --- the list ------------------------------------------------------------------------------------

  #fill(): void {
    const options = this.#results.map((school, index) => {
      const option = element('li', {
        part: 'option',
        id: `option-${index}`,
        role: 'option',
        'aria-selected': 'false',
        'data-index': String(index),
      });
      const name = element('span', { part: 'option-name', class: 'name' });
      name.textContent = school.schoolname;
      const detail = element('span', { part: 'option-detail', class: 'detail' });
      detail.textContent = schoolDetail(school);
      option.append(name, detail);
      return option;
    });
    this.#listbox.replaceChildren(...options);
    this.#activate(-1);
  }

  #open(): void {
    if (this.#results.length === 0) return;
    this.#listbox.hidden = false;
    this.#input.setAttribute('aria-expanded', 'true');
  }

  #close(): void {
    this.#listbox.hidden = true;
    this.#input.setAttribute('aria-expanded', 'false');
    this.#activate(-1);
  }

  get #expanded(): boolean {
    return !this.#listbox.hidden;
  }

  #activate(index: number): void {
    const previous = this.#listbox.children[this.#active];
    previous?.setAttribute('aria-selected', 'false');
    this.#active = index;
    const option = this.#listbox.children[index];
    if (!option) {
      this.#input.removeAttribute('aria-activedescendant');
      return;
    }
    option.setAttribute('aria-selected', 'true');
    this.#input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView({ block: 'nearest' });
  }

  /** ArrowDown/Up move (wrapping), Home/End jump while an option is active, Enter chooses, Escape closes, then clears. */
  #key(event: KeyboardEvent): void {
    const count = this.#results.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        event.preventDefault();
        this.#arrow(event.key === 'ArrowDown', event.altKey, count);
        break;
      case 'Home':
      case 'End':
        // Only in the list: otherwise they move the caret in the text, as in any input.
        if (this.#expanded && this.#active >= 0) {
          event.preventDefault();
          this.#activate(event.key === 'Home' ? 0 : count - 1);
        }
        break;
      case 'Enter':
        if (this.#expanded && this.#active >= 0) {
          event.preventDefault();
          this.#choose(this.#active);
        }
        break;
      case 'Escape':
        if (this.#expanded) {
          event.preventDefault();
          this.#close();
        } else if (this.#input.value || this.#value) {
          event.preventDefault();
          this.#clear(true);
        }
        break;
      case 'Tab':
        // The focus leaves as usual, and nothing is chosen for the user.
        this.#close();
        break;
    }
  }

  /** Down: the next option (the first when none is active); up: the previous one; with Alt, open or close only. */
  #arrow(down: boolean, alt: boolean, count: number): void {
    if (alt) {
      if (down) this.#open();
      else this.#close();
      return;
    }
    if (this.#expanded) {
      const next = this.#active < 0 ? (down ? 0 : count - 1) : (this.#active + (down ? 1 : -1) + count) % count;
      this.#activate(next);
      return;
    }
    // Closed: the results of this text again, or a search now (no debounce: the user asked).
    if (count > 0 && this.#input.value === this.#queryShown) {
      this.#open();
      this.#activate(down ? 0 : count - 1);
      return;
    }
    const query = this.#input.value;
    if (!this.#value && query.trim().length >= Math.max(1, this.#number('min-chars', 1))) {
      void this.#search(query, () => this.#activate(down ? 0 : this.#results.length - 1));
    }
  }

  #choose(index: number): void {
    const school = this.#results[index];
    if (!school) return;
    this.#cancel();
    this.#input.value = school.schoolname;
    this.#close();
    this.#set(school.schoolid, school);
    this.#say(`Chosen: ${school.schoolname}, ${schoolDetail(school)}.`);
    this.dispatchEvent(
      new CustomEvent<SchoolSelectDetail>('school-select', {
        bubbles: true,
        composed: true,
        detail: { id: school.schoolid, school },
      }),
    );
  }

  /** No school and no text: Escape on a closed list, a form reset, `value = ''`. */
  #clear(notify = false): void {
    this.#cancel();
    this.#close();
    this.#input.value = '';
    this.#results = [];
    this.#listbox.replaceChildren();
    this.#queryShown = '';
    this.#say('');
    this.#set('', undefined, notify);
  }

  /** The chosen school; `change` when the user chose another one (a script's change is not announced, as for an input). */
  #set(id: string, school: PickedSchool | undefined, notify = true): void {
    const changed = notify && id !== this.#value;
    this.#value = id;
    this.#school = school;
    this.#syncForm();
    if (changed) this.dispatchEvent(new Event('change', { bubbles: true }));
  }

  #say(message: string, error = false): void {
    this.#status.classList.toggle('error', error);
    if (this.#status.textContent !== message) this.#status.textContent = message;
  }
}
