// When an imported school is the one already stored: the rule every store applies, so that an
// import counts a school as unchanged (and leaves the catalog's version alone) on every store
// alike. Everything a client sees or a search reads decides; the search fields follow from these.
import type { CatalogSchool } from './catalog.ports.ts';
import { sameKind } from './school-kind.ts';
import { sameLocation } from './school-location.ts';

export function sameSchool(a: CatalogSchool, b: CatalogSchool): boolean {
  return (
    a.name === b.name &&
    a.city === b.city &&
    a.state === b.state &&
    a.imageUrl === b.imageUrl &&
    sameLocation(a, b) &&
    sameKind(a, b) &&
    a.prominence === b.prominence &&
    a.aliases.length === b.aliases.length &&
    a.aliases.every((alias, i) => alias === b.aliases[i])
  );
}
