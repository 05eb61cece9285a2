// The try-it frame (/dashboard/picker-frame#key=spk_…&state-code=…): loads the school picker
// module from this origin and puts one <school-picker> in the page, as the HTML snippet does on a
// customer's page, with the key and options its fragment names (a fragment never leaves the
// browser). Until the server serves the module, or when it fails, the frame says so instead.
import { byId, h, show } from './dom.ts';
import { PICKER_PATH } from './snippets.ts';

const OPTIONS = ['state-code', 'level', 'type', 'near', 'placeholder'] as const;

interface SchoolSelect {
  readonly id?: string;
  readonly school?: { readonly schoolname?: string; readonly city?: string; readonly stateprovince?: string };
}

async function start(): Promise<void> {
  const status = byId('picker-status');
  const slot = byId('picker-slot');
  const choice = byId('picker-choice');
  const params = new URLSearchParams(location.hash.slice(1));
  const key = params.get('key');
  if (!key) {
    status.textContent = 'Choose a publishable key to try the picker with.';
    return;
  }
  try {
    // A variable, not a literal: the bundler leaves the import to the browser, at run time.
    const module = new URL(PICKER_PATH, location.origin).href;
    await import(module);
  } catch {
    status.textContent = `The school picker is not available on this server yet (${PICKER_PATH} did not load). The snippets work once it is.`;
    status.classList.add('error');
    return;
  }
  const picker = document.createElement('school-picker');
  picker.setAttribute('api', location.origin);
  picker.setAttribute('key', key);
  for (const name of OPTIONS) {
    const value = params.get(name);
    if (value) picker.setAttribute(name, value);
  }
  picker.addEventListener('school-select', (event) => {
    const detail = (event as CustomEvent<SchoolSelect>).detail ?? {};
    const school = detail.school ?? {};
    show(
      choice,
      'school-select: ',
      h('strong', {}, school.schoolname ?? '(no name)'),
      [school.city, school.stateprovince].filter(Boolean).join(', ')
        ? ` (${[school.city, school.stateprovince].filter(Boolean).join(', ')})`
        : '',
      `, id ${detail.id ?? '?'}`,
    );
  });
  slot.append(picker);
  status.textContent = 'Type a few letters of a school’s name.';
}

void start();
