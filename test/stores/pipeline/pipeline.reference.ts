// What the MongoDB pipelines promise, computed the slow way: filter every draft, sort them all.
import type { SchoolDraft } from '../../../src/domain/ports.ts';
import { nameSortKey } from '../../../src/domain/search/normalize.ts';
import { coveredLength, searchText } from '../../../src/stores/mongodb/texts.ts';

export interface ReferenceHit {
  readonly id: string;
  readonly sortKey: string;
  /** The shortest search text of the school that matched every term. */
  readonly length: number;
}

/** Byte order of the UTF-8 encodings: what SQLite's BINARY collation and MongoDB's default compare. */
export function utf8Compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export function reference(drafts: readonly SchoolDraft[], terms: readonly string[], state: string | undefined): ReferenceHit[] {
  const covered = coveredLength(terms);
  const matchesText = (textTerms: readonly string[]) =>
    terms.every((t) => textTerms.some((w) => (t.length === 1 ? w === t : w.startsWith(t))));
  return drafts
    .filter((d) => state === undefined || d.state === state)
    .flatMap((d) => {
      const lengths = [d.name, ...d.aliases].map(searchText).filter((t) => matchesText(t.terms)).map((t) => t.length);
      return lengths.length ? [{ id: d.id, sortKey: nameSortKey(d.name), length: Math.min(...lengths) }] : [];
    })
    .sort(
      (x, y) =>
        Math.max(x.length, covered) - Math.max(y.length, covered) || utf8Compare(x.sortKey, y.sortKey) || utf8Compare(x.id, y.id),
    );
}
