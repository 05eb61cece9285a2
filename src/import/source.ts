// What every reader yields, one item per data row of the file, so that the import service
// can validate, count and report the same way whatever the format.
import type { SchoolInput } from '../domain/catalog/school-draft.ts';

/** Where a row is: its first line, and for an element of a JSON array its index (1-based). */
export interface RowPlace {
  readonly line: number;
  readonly element?: number | undefined;
}

export type SourceRow =
  | (RowPlace & { readonly input: SchoolInput })
  /** Left out by the format's policy (not an error), e.g. IPEDS administrative units. */
  | (RowPlace & { readonly skip: string })
  | (RowPlace & { readonly error: string });

/**
 * Reads a whole file, given as valid UTF-8 bytes (read.ts decodes it from its encoding first,
 * keeping every line break, so line numbers are the file's). `onProgress` receives the fraction
 * read, 0 to 1. A problem with the file as a whole (e.g. its header) is yielded as an error row
 * on line 1, and ends it.
 */
export type SourceReader = (utf8: Buffer, onProgress: (fraction: number) => void) => AsyncIterable<SourceRow>;
