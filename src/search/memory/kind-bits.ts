// A school's level, grades, type and tags in one 32-bit word per document (index-data.ts
// `docKind`): 4 bytes a school whatever it is, instead of five fields of text. 0 in a field is
// unknown; otherwise the value's position in its vocabulary plus one.
//   bits 0–2 level, 3–4 type, 5–8 lowest grade, 9–12 highest grade, 13–19 tags (one bit each).
import { GRADES, knownKind, LEVELS, SCHOOL_TYPES, type SchoolKind, TAGS } from '../../domain/school.kind.ts';
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

export function unpackKind(word: number): SchoolKind {
  if (word === 0) return {};
  const value = <T>(values: readonly T[], shift: number, bits: number): T | undefined => {
    const c = (word >>> shift) & ((1 << bits) - 1);
    return c === 0 ? undefined : values[c - 1];
  };
  const tagBits = word >>> TAGS_SHIFT;
  return knownKind({
    level: value(LEVELS, LEVEL_SHIFT, 3),
    type: value(SCHOOL_TYPES, TYPE_SHIFT, 2),
    lowestGrade: value(GRADES, LOWEST_SHIFT, 4),
    highestGrade: value(GRADES, HIGHEST_SHIFT, 4),
    tags: TAGS.filter((_, i) => (tagBits & (1 << i)) !== 0),
  });
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
