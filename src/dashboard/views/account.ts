// The account: who, since when, usage totals, and requests per day for the last 30 days.
import { fetchMyData, fetchMyUsage } from '../../../generated/sdk.gen.ts';
import { client, explain, ok } from '../api.ts';
import { usageChart } from '../chart.ts';
import { count, day, when } from '../format.ts';
import { h, show } from '../dom.ts';

const CHART_DAYS = 30;

export async function renderAccount(view: HTMLElement): Promise<void> {
  const body = h('div', { 'aria-busy': 'true' }, h('p', {}, 'Loading…'));
  show(view, h('h1', {}, 'Account'), body);
  try {
    const [me, usage] = await Promise.all([
      ok(fetchMyData({ client })),
      ok(fetchMyUsage({ client, query: { days: CHART_DAYS } })),
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
    show(
      body,
      h(
        'dl',
        { class: 'facts' },
        ...facts.flatMap(([term, value]) => [h('dt', {}, term), h('dd', { 'data-fact': term }, value)]),
      ),
      h('h2', {}, 'Requests per day'),
      usageChart(usage.days),
    );
  } catch (failure) {
    if (body.isConnected) show(body, h('p', { class: 'error', role: 'alert' }, explain(failure)));
  }
}
