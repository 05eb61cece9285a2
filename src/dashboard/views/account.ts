// The account: who, since when, usage totals, requests per day for the last 30 days (all keys,
// or one), and per key and per origin; for a new account, the first-run panel instead.
import { fetchMyData, fetchMyUsage, listMyTokens } from '../../../generated/sdk.gen.ts';
import type { DailyUsage, TokenInfo } from '../../../generated/types.gen.ts';
import { client, explain, ok } from '../api.ts';
import { usageChart } from '../chart.ts';
import { count, day, when } from '../format.ts';
import { field, h, show, table } from '../dom.ts';
import { firstRunPanel } from './first-run.ts';

const CHART_DAYS = 30;

export async function renderAccount(view: HTMLElement): Promise<void> {
  const body = h('div', { 'aria-busy': 'true' }, h('p', {}, 'Loading…'));
  show(view, h('h1', {}, 'Account'), body);
  try {
    const [me, usage, { tokens }] = await Promise.all([
      ok(fetchMyData({ client })),
      ok(fetchMyUsage({ client, query: { days: CHART_DAYS } })),
      ok(listMyTokens({ client })),
    ]);
    if (!body.isConnected) return;
    const facts: Array<[string, string]> = [
      ['E-mail', me.email],
      ['Member since', day(me.created_at)],
      ['Requests', count(me.usage.request_count)],
      ['Total cost', count(me.usage.total_cost)],
      ['Last request', when(me.usage.last_request_at)],
      ['Live tokens and keys', count(me.active_tokens)],
    ];
    body.removeAttribute('aria-busy');
    const keys = tokens.filter((t) => t.kind === 'key');
    const firstRun = keys.length === 0 && me.usage.request_count === 0;
    show(
      body,
      h(
        'dl',
        { class: 'facts' },
        ...facts.flatMap(([term, value]) => [h('dt', {}, term), h('dd', { 'data-fact': term }, value)]),
      ),
      firstRun ? firstRunPanel() : usageSection(usage, keys),
    );
  } catch (failure) {
    if (body.isConnected) show(body, h('p', { class: 'error', role: 'alert' }, explain(failure)));
  }
}

/** Requests per day (all keys, or the one chosen), then the period per key and per origin. */
function usageSection(usage: DailyUsage, keys: readonly TokenInfo[]): HTMLElement {
  const chart = h('div', {}, usageChart(usage.days));
  const names = new Map(keys.map((k) => [k.token_id, k.name ?? k.hint]));
  const keyName = (id: string | null) =>
    id === null ? 'Sessions (sign-ins)' : (names.get(id) ?? 'a key no longer live');
  const choice = h(
    'select',
    { id: 'usage-key' },
    h('option', { value: '' }, 'All tokens and keys'),
    ...keys.map((k) => h('option', { value: k.token_id }, k.name ?? k.hint)),
  );
  const error = h('p', { class: 'error', role: 'alert' });
  choice.addEventListener('change', async () => {
    error.textContent = '';
    try {
      const picked = await ok(fetchMyUsage({ client, query: { days: CHART_DAYS, key_id: choice.value || undefined } }));
      show(chart, usageChart(picked.days));
    } catch (failure) {
      error.textContent = explain(failure);
    }
  });
  return h(
    'div',
    {},
    h('h2', {}, 'Requests per day'),
    keys.length > 0 ? field('Show', choice) : null,
    error,
    chart,
    h('h2', {}, `Per key, last ${CHART_DAYS} days`),
    table(
      'Requests per key',
      ['Key', 'Requests', 'Cost'],
      usage.by_key.map((row) =>
        h(
          'tr',
          { 'data-key-id': row.key_id ?? 'sessions' },
          h('th', { scope: 'row' }, keyName(row.key_id)),
          h('td', { class: 'number' }, count(row.request_count)),
          h('td', { class: 'number' }, count(row.total_cost)),
        ),
      ),
      { captionHidden: true },
    ),
    h('h2', {}, `Per origin, last ${CHART_DAYS} days`),
    table(
      'Requests per origin',
      ['Origin', 'Requests', 'Cost'],
      usage.by_origin.map((row) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, row.origin ?? 'No page (programs, this dashboard)'),
          h('td', { class: 'number' }, count(row.request_count)),
          h('td', { class: 'number' }, count(row.total_cost)),
        ),
      ),
      { captionHidden: true },
    ),
  );
}
