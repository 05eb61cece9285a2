// Request history, newest first, a page at a time.
import { fetchMyRequests } from '../../../generated/sdk.gen.ts';
import { client, explain, ok } from '../api.ts';
import { count, requestMade, searchParameters, when } from '../format.ts';
import { h, show, table } from '../dom.ts';

const PAGE = 25;

export function renderHistory(view: HTMLElement): void {
  const body = h('div');
  show(
    view,
    h('h1', {}, 'Request history'),
    h('p', {}, 'Every metered request made with your tokens and keys, newest first.'),
    body,
  );
  void page(body, 0);
}

async function page(body: HTMLElement, offset: number): Promise<void> {
  body.setAttribute('aria-busy', 'true');
  try {
    const history = await ok(fetchMyRequests({ client, query: { offset, limit: PAGE } }));
    if (!body.isConnected) return;
    body.removeAttribute('aria-busy');
    if (history.total_count === 0) {
      show(body, h('p', {}, 'No requests yet. Searches made with any of your tokens or API keys appear here.'));
      return;
    }
    const rows = history.requests.map((r) =>
      h(
        'tr',
        {},
        h('td', {}, when(r.ttimemade)),
        h('td', { class: 'request' }, requestMade(r.trequestmade)),
        h('td', { class: 'parameters' }, searchParameters(r)),
        h('td', { class: 'number' }, count(r.trequestcost)),
      ),
    );
    const first = offset + 1;
    const last = offset + history.requests.length;
    const previous = h('button', { type: 'button', disabled: offset === 0 }, 'Previous page');
    const next = h('button', { type: 'button', disabled: last >= history.total_count }, 'Next page');
    previous.addEventListener('click', () => void page(body, Math.max(0, offset - PAGE)));
    next.addEventListener('click', () => void page(body, offset + PAGE));
    show(
      body,
      table('Requests', ['Time', 'Request', 'Parameters', 'Cost'], rows, { captionHidden: true }),
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
