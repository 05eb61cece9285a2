// Requests per day as a bar chart (SVG), with the same numbers as a table for screen readers
// and for anyone who wants the figures.
import type { DayUsage } from '../../generated/types.gen.ts';
import { count, utcDay } from './format.ts';
import { h, svg, table } from './dom.ts';

const WIDTH = 600;
const HEIGHT = 180;
const TOP = 16;
const BOTTOM = 24;

export function usageChart(days: DayUsage[]): HTMLElement {
  const max = Math.max(1, ...days.map((d) => d.request_count));
  const total = days.reduce((sum, d) => sum + d.request_count, 0);
  const slot = WIDTH / days.length;
  const plot = HEIGHT - TOP - BOTTOM;
  const bars = days.map((d, i) => {
    const height = (d.request_count / max) * plot;
    return svg(
      'rect',
      {
        class: 'bar',
        x: (i * slot + slot * 0.15).toFixed(1),
        y: (TOP + plot - height).toFixed(1),
        width: (slot * 0.7).toFixed(1),
        height: Math.max(height, d.request_count > 0 ? 1 : 0).toFixed(1),
        'data-date': d.date,
        'data-count': d.request_count,
      },
      svg('title', {}, `${utcDay(d.date)}: ${count(d.request_count)} request${d.request_count === 1 ? '' : 's'}`),
    );
  });
  // First, middle and last day; the outer two are anchored inwards so that they are not cut off.
  const labels = (
    [
      [0, 'start', 2],
      [Math.floor(days.length / 2), 'middle', Math.floor(days.length / 2) * slot + slot / 2],
      [days.length - 1, 'end', WIDTH - 2],
    ] as const
  ).map(([i, anchor, x]) =>
    svg('text', { class: 'axis', x: x.toFixed(1), y: HEIGHT - 6, 'text-anchor': anchor }, utcDay(days[i]!.date)),
  );
  const picture = svg(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': 'usage-caption', class: 'chart' },
    svg('line', { class: 'baseline', x1: 0, x2: WIDTH, y1: TOP + plot, y2: TOP + plot }),
    svg('text', { class: 'axis', x: 2, y: TOP - 4 }, `${count(max)}`),
    ...bars,
    ...labels,
  );
  const rows = [...days]
    .reverse()
    .map((d) =>
      h(
        'tr',
        {},
        h('td', {}, utcDay(d.date)),
        h('td', { class: 'number' }, count(d.request_count)),
        h('td', { class: 'number' }, count(d.total_cost)),
      ),
    );
  return h(
    'figure',
    { class: 'usage' },
    h(
      'figcaption',
      { id: 'usage-caption' },
      `${count(total)} request${total === 1 ? '' : 's'} in the last ${days.length} days (UTC), at most ${count(max)} a day`,
    ),
    picture,
    h(
      'details',
      {},
      h('summary', {}, 'Show as a table'),
      table('Requests per day', ['Day (UTC)', 'Requests', 'Cost'], rows, { captionHidden: true }),
    ),
  );
}
