// The targets, judged on one run's figures. A target whose scenario was not run (--only)
// is "n/a", neither met nor missed.
import type { LoadResult } from './load.ts';
import type { ScenarioServerFigures } from './server-process.ts';

export interface Target {
  readonly name: string;
  /** The figure, formatted, or undefined when it was not measured. */
  readonly figure: string | undefined;
  readonly limit: string;
  readonly ok: boolean | undefined;
  /** The figure as a number, for the JSON line. */
  readonly value: number | undefined;
}

export interface Measured {
  readonly schools: number;
  readonly health?: LoadResult | undefined;
  readonly mix?: { readonly load: LoadResult; readonly server: ScenarioServerFigures } | undefined;
  readonly mixWithLogins?: LoadResult | undefined;
  readonly loginConnections: number;
  /** The server's peak RSS over its whole life (VmHWM: start-up and every scenario), bytes. */
  readonly serverRss: number;
  /** Distinct searches answered before serverRss was read (judged only from DISTINCT_MIN). */
  readonly distinctSearches: number;
  readonly importSeconds: number;
}

export const RSS_LIMIT_BYTES = 300e6;
/** The RSS is judged after at least this many distinct searches (the condition). */
export const DISTINCT_MIN = 20_000;

export function judge(m: Measured): Target[] {
  const target = (
    name: string,
    value: number | undefined,
    digits: number,
    unit: string,
    limit: string,
    ok: (v: number) => boolean,
  ): Target => ({
    name,
    value,
    figure: value === undefined || !Number.isFinite(value) ? undefined : `${value.toFixed(digits)}${unit}`,
    limit,
    ok: value === undefined || !Number.isFinite(value) ? undefined : ok(value),
  });
  const { health, mix, mixWithLogins } = m;
  return [
    target(
      'search mix / health, req/s',
      mix && health ? mix.load.rps / health.rps : undefined,
      3,
      '',
      '>= 0.3',
      (v) => v >= 0.3,
    ),
    target(
      'search p99 / health p99',
      mix && health ? mix.load.p99 / health.p99 : undefined,
      2,
      '',
      '<= 3',
      (v) => v <= 3,
    ),
    target('event-loop delay p99 during the mix', mix?.server.eld.p99, 1, ' ms', '<= 10 ms', (v) => v <= 10),
    target(
      `search p99 with ${m.loginConnections} login loops / without`,
      mixWithLogins && mix ? mixWithLogins.p99 / mix.load.p99 : undefined,
      2,
      '',
      '<= 1.5',
      (v) => v <= 1.5,
    ),
    target(
      `server peak RSS (VmHWM), ${m.schools} schools, after ${m.distinctSearches} distinct searches`,
      m.distinctSearches >= DISTINCT_MIN ? m.serverRss / 1e6 : undefined,
      0,
      ' MB',
      '<= 300 MB',
      (v) => v * 1e6 <= RSS_LIMIT_BYTES,
    ),
    target(`import of ${m.schools} rows`, m.importSeconds, 2, ' s', '<= 5 s', (v) => v <= 5),
  ];
}
