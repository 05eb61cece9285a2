// One query of the quality benchmark and the schools that answer it.
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import type { SearchScope } from '../../src/domain/search/filters.ts';

export interface Probe {
  readonly text: string;
  readonly state?: string | undefined;
  /** The school meant. */
  readonly target: CatalogSchool;
  /** Schools indistinguishable from it by what was typed (namesakes: the same name, in the same state when one is given). */
  readonly accept: ReadonlySet<string>;
  /** A sub-kind, reported on its own line (the kind of typo, of abbreviation). */
  readonly kind?: string;
  /** Filters and a point beyond the state (issue 25: near me). */
  readonly scope?: Omit<SearchScope, 'state'>;
}
