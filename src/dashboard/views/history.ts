// Request history, newest first, a page at a time: all of it, or one API key's. Each record says
// which key made it (none: a session) and, for a publishable key, from which page's origin.
import { fetchMyRequests, listMyTokens } from '../../../generated/sdk.gen.ts';
import { client, explain, ok } from '../api.ts';
import { count, requestMade, searchParameters, when } from '../format.ts';
import { field, h, show, table } from '../dom.ts';

const PAGE = 25;

export function renderHistory(view: HTMLElement): void {
  const body = h('div');
  const filter = h('select', { id: 'history-key' }, h('option', { value: '' }, 'All tokens and keys'));
  const names = new Map<string, string>();
  filter.addEventListener('change', () => void page(body, 0, filter.value || undefined, names));
  show(
    view,
    h('h1', {}, 'Request history'),
    h('p', {}, 'Every metered request made with your tokens and keys, newest first.'),
    field('Show', filter),
    body,
  );
  void (async () => {
    // The keys' names, for the filter and the Key column; the history shows without them too.
    try {
      const { tokens } = await ok(listMyTokens({ client }));
      for (const t of tokens) {
        if (t.kind !== 'key') continue;
        names.set(t.token_id, t.name ?? t.hint);
        filter.append(h('option', { value: t.token_id }, t.name ?? t.hint));
      }
    } catch {
      // The page below says what failed, if the history fails too.
    }
    await page(body, 0, undefined, names);
  })();
}

async function page(
  body: HTMLElement,
  offset: number,
  keyId: string | undefined,
  names: ReadonlyMap<string, string>,
): Promise<void> {
  body.setAttribute('aria-busy', 'true');
  try {
    const history = await ok(fetchMyRequests({ client, query: { offset, limit: PAGE, key_id: keyId } }));
    if (!body.isConnected) return;
    body.removeAttribute('aria-busy');
    if (history.total_count === 0) {
      show(
        body,
        h(
          'p',
          {},
          keyId
            ? 'No requests with this key yet.'
            : 'No requests yet. Searches made with any of your tokens or API keys appear here.',
        ),
      );
      return;
    }
    const rows = history.requests.map((r) =>
      h(
        'tr',
        {},
        h('td', {}, when(r.ttimemade)),
        h('td', { class: 'request' }, requestMade(r.trequestmade)),
        h('td', { class: 'parameters' }, searchParameters(r)),
        h('td', { class: 'key' }, r.key_id ? (names.get(r.key_id) ?? 'a key no longer live') : 'session'),
        h('td', { class: 'origin' }, r.origin ?? ''),
        h('td', { class: 'number' }, count(r.trequestcost)),
      ),
    );
    const first = offset + 1;
    const last = offset + history.requests.length;
    const previous = h('button', { type: 'button', disabled: offset === 0 }, 'Previous page');
    const next = h('button', { type: 'button', disabled: last >= history.total_count }, 'Next page');
    previous.addEventListener('click', () => void page(body, Math.max(0, offset - PAGE), keyId, names));
    next.addEventListener('click', () => void page(body, offset + PAGE, keyId, names));
    show(
      body,
      table('Requests', ['Time', 'Request', 'Parameters', 'Key', 'Origin', 'Cost'], rows, { captionHidden: true }),
      h(
        'nav',
        { class: 'pager', 'aria-label': 'Pages of the history' },
        previous,
        h('p', { role: 'status' }, `${count(first)}–${count(last)} of ${count(history.total_count)}`),
        next,
      ),
    );
  } catch (failure) {
    if (body.isConnected) show(body, h('p', { class: 'error', role: 'alert' }, explain(failure)));
  }
}
