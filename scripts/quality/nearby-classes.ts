// Finding the right school among namesakes (issue 25): a namesake's name typed near where it is
// (a phone's position, within a kilometre or so of the school), where the nearest school of that
// name must come first; and searches with level, type and radius filters, where every hit must
// obey them and the total must be the reference engine's.
import { distanceKm, type GeoPoint } from '../../src/domain/catalog/geo.ts';
import { TYPE_FILTERS, type SearchScope, type TypeFilter } from '../../src/domain/search/filters.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { words } from '../../src/domain/shared/normalize.ts';
import { one, type Rng } from '../bench/random.ts';
import { typed, withNamesakes, type K12Context } from './k12-classes.ts';
import type { Probe } from './probe.ts';
import { namesakeKey } from './namesakes.ts';

const located = (s: CatalogSchool): s is CatalogSchool & { latitude: number; longitude: number } =>
  s.latitude !== undefined && s.longitude !== undefined;

/** A point `km` or less from `p` in a random direction, to 4 decimals as a phone reports it. */
export function around(p: GeoPoint, km: number, r: Rng): GeoPoint {
  const d = r() * km;
  const bearing = r() * 2 * Math.PI;
  const lat = p.latitude + (d / 111.2) * Math.cos(bearing);
  const lon = p.longitude + ((d / 111.2) * Math.sin(bearing)) / Math.max(0.1, Math.cos((p.latitude * Math.PI) / 180));
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return { latitude: Math.max(-90, Math.min(90, round(lat))), longitude: Math.max(-180, Math.min(180, round(lon))) };
}

/**
 * A namesake's name typed within a kilometre of it, with no state: any school of that name as
 * near as the nearest (namesakes at one address are one answer) will do.
 */
export function namesakesNearProbes(k12: readonly CatalogSchool[], { r, sample }: K12Context): Probe[] {
  const byKey = new Map<string, CatalogSchool[]>();
  for (const s of k12.filter(located)) {
    const key = namesakeKey(s.name);
    byKey.set(key, [...(byKey.get(key) ?? []), s]);
  }
  return sample(withNamesakes(k12).filter(located)).map((s) => {
    const near = around({ latitude: s.latitude!, longitude: s.longitude! }, 1, r);
    const namesakes = byKey.get(namesakeKey(s.name)) ?? [s];
    const far = (n: CatalogSchool) => distanceKm(near, { latitude: n.latitude!, longitude: n.longitude! });
    const nearest = Math.min(...namesakes.map(far));
    const accept = new Set(namesakes.filter((n) => far(n) <= nearest).map((n) => n.id));
    return { text: typed(s.name, r), target: s, accept, scope: { near } };
  });
}

/** A filtered search and its catalog's state (the reference engine then reads one state, not all). */
export interface FilterProbe {
  readonly text: string;
  readonly scope: SearchScope & { readonly stateCode: string };
  readonly kind: string;
}

/** The type filters a school passes. */
const typesOf = (s: CatalogSchool): TypeFilter[] =>
  TYPE_FILTERS.filter((t) => (t === 'charter' ? s.tags?.includes('charter') : s.type === t));

/**
 * Searches with filters drawn from a school of a few states: the first word or two of its name
 * (or the start of its first word), in its state, with its level, its type, both, or a radius
 * around a point near it (sometimes with a level too).
 */
export function filterProbes(catalog: readonly CatalogSchool[], r: Rng, count: number, states: number): FilterProbe[] {
  const byState = new Map<string, CatalogSchool[]>();
  for (const s of catalog) byState.set(s.state, [...(byState.get(s.state) ?? []), s]);
  const chosen = [...byState.keys()]
    .sort()
    .filter(() => r() < 0.5)
    .slice(0, states);
  const probes: FilterProbe[] = [];
  for (let attempt = 0; probes.length < count && attempt < count * 20; attempt++) {
    const s = one(r, byState.get(one(r, chosen))!);
    const ws = words(s.name);
    if (ws.length === 0) continue;
    const text = r() < 0.2 ? ws[0]!.slice(0, 2) : ws.slice(0, r() < 0.5 ? 1 : 2).join(' ');
    const types = typesOf(s);
    const kinds = [
      s.level ? 'level' : undefined,
      types.length > 0 ? 'type' : undefined,
      s.level && types.length > 0 ? 'level and type' : undefined,
      located(s) ? 'radius' : undefined,
      located(s) && s.level ? 'radius and level' : undefined,
    ].filter((k) => k !== undefined);
    if (kinds.length === 0) continue;
    const kind = one(r, kinds);
    const scope: { -readonly [K in keyof SearchScope]: SearchScope[K] } & { stateCode: string } = {
      stateCode: s.state,
    };
    if (kind.includes('level')) scope.level = [s.level!];
    if (kind.includes('type')) scope.type = [one(r, types)];
    if (kind.includes('radius')) {
      scope.near = around({ latitude: s.latitude!, longitude: s.longitude! }, 5, r);
      scope.radiusKm = one(r, [2, 10, 25, 100]);
    }
    probes.push({ text, scope, kind });
  }
  return probes;
}
