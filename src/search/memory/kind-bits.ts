// A school's level, grades, type and tags in one 32-bit word per document (index-data.ts
// `docKind`): 4 bytes a school whatever it is, instead of five fields of text. 0 in a field is
// unknown; otherwise the value's position in its vocabulary plus one.
//   bits 0–2 level, 3–4 type, 5–8 lowest grade, 9–12 highest grade, 13–19 tags (one bit each).
import {
  GRADES,
  LEVELS,
  SCHOOL_TYPES,
  type SchoolKind,
  type SchoolTag,
  TAGS,
} from '../../domain/catalog/school-kind.ts';
import type { TypeFilter } from '../../domain/search/filters.ts';

const LEVEL_SHIFT = 0;
const TYPE_SHIFT = 3;
const LOWEST_SHIFT = 5;
const HIGHEST_SHIFT = 9;
const TAGS_SHIFT = 13;

const code = (values: readonly string[], value: string | undefined): number =>
  value === undefined ? 0 : values.indexOf(value) + 1;

export function packKind(kind: SchoolKind): number {
  let tags = 0;
  for (const tag of kind.tags ?? []) tags |= 1 << TAGS.indexOf(tag);
  return (
    ((code(LEVELS, kind.level) << LEVEL_SHIFT) |
      (code(SCHOOL_TYPES, kind.type) << TYPE_SHIFT) |
      (code(GRADES, kind.lowestGrade) << LOWEST_SHIFT) |
      (code(GRADES, kind.highestGrade) << HIGHEST_SHIFT) |
      (tags << TAGS_SHIFT)) >>>
    0
  );
}

/**
 * The tags of each combination of tag bits, in TAGS order; undefined for none. One frozen list per
 * combination (128), shared by every school that has it: unpacking a school's tags allocates
 * nothing, and the lists cannot be changed through one school for all.
 */
const TAG_LISTS: readonly (readonly SchoolTag[] | undefined)[] = Array.from({ length: 1 << TAGS.length }, (_, bits) =>
  bits === 0 ? undefined : Object.freeze(TAGS.filter((_, i) => (bits & (1 << i)) !== 0)),
);
const TAG_MASK = (1 << TAGS.length) - 1;

/** A SchoolKind that setKind can fill in. */
export type KindFields = { -readonly [K in keyof SchoolKind]: SchoolKind[K] };

/**
 * Sets the known fields of a packed word on `kind`, in knownKind's order (level, lowest grade,
 * highest grade, type, tags), and leaves the unknown ones absent. It adds to the object it is
 * given, so that a decoder builds a school in one go, in one field order, without the spread of
 * a kind object of its own (catalog-view.ts). A code outside its vocabulary is unknown.
 */
export function setKind(kind: KindFields, word: number): void {
  if (word === 0) return;
  const level = (word >>> LEVEL_SHIFT) & 7;
  if (level !== 0 && level <= LEVELS.length) kind.level = LEVELS[level - 1];
  const lowest = (word >>> LOWEST_SHIFT) & 15;
  if (lowest !== 0 && lowest <= GRADES.length) kind.lowestGrade = GRADES[lowest - 1];
  const highest = (word >>> HIGHEST_SHIFT) & 15;
  if (highest !== 0 && highest <= GRADES.length) kind.highestGrade = GRADES[highest - 1];
  const type = (word >>> TYPE_SHIFT) & 3;
  if (type !== 0 && type <= SCHOOL_TYPES.length) kind.type = SCHOOL_TYPES[type - 1];
  const tags = TAG_LISTS[(word >>> TAGS_SHIFT) & TAG_MASK];
  if (tags !== undefined) kind.tags = tags;
}

export function unpackKind(word: number): SchoolKind {
  const kind: KindFields = {};
  setKind(kind, word);
  return kind;
}

/** The level's index in LEVELS, or -1 when unknown. */
export function levelIndexOf(word: number): number {
  return ((word >>> LEVEL_SHIFT) & 7) - 1;
}

/** Whether the packed kind is of type `t` as a search means it (filters.ts, isOfType). */
export function isKindOfType(word: number, t: TypeFilter): boolean {
  return t === 'charter'
    ? ((word >>> TAGS_SHIFT) & (1 << TAGS.indexOf('charter'))) !== 0
    : ((word >>> TYPE_SHIFT) & 3) === SCHOOL_TYPES.indexOf(t) + 1;
}
