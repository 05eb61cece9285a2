// What a school is: its level, lowest and highest grade, broad type and the facts (tags) its
// directory states. Each is optional: a School holds only the known ones, as with its location,
// so that an unknown costs nothing and the API omits it (never null). The vocabularies are the
// contract's (SchoolLevel, Grade, SchoolType, SchoolTag); docs/import.md says which column of
// which directory gives each.

export const LEVELS = ['elementary', 'middle', 'high', 'other', 'postsecondary'] as const;
export type SchoolLevel = (typeof LEVELS)[number];

/** In school order: a grade's index is its rank (PK 0, K 1, grade n at n + 1). */
export const GRADES = ['PK', 'K', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'] as const;
export type Grade = (typeof GRADES)[number];

export const SCHOOL_TYPES = ['public', 'private', 'postsecondary'] as const;
export type SchoolType = (typeof SCHOOL_TYPES)[number];

/** A type a search can ask for: a School's type, or `charter` (a school tagged charter). */
export const TYPE_FILTERS = ['public', 'private', 'charter', 'postsecondary'] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

/** In the order a school's tags are listed. */
export const TAGS = [
  'charter',
  'catholic',
  'separate',
  'francophone',
  'public_control',
  'private_control',
  'for_profit',
] as const;
export type SchoolTag = (typeof TAGS)[number];

export interface SchoolKind {
  readonly level?: SchoolLevel;
  readonly lowestGrade?: Grade;
  readonly highestGrade?: Grade;
  readonly type?: SchoolType;
  /** Distinct, in TAGS order; absent (never empty) when the directory states none. */
  readonly tags?: readonly SchoolTag[];
}

/** What a store reads back: a value, or null/undefined for unknown. */
export interface StoredKind {
  readonly level?: string | null | undefined;
  readonly lowestGrade?: string | null | undefined;
  readonly highestGrade?: string | null | undefined;
  readonly type?: string | null | undefined;
  readonly tags?: readonly string[] | null | undefined;
}

const rank = (grade: Grade): number => GRADES.indexOf(grade);

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/** The vocabulary's own string for `value`: a catalog read from a store then holds one copy of each, not one per school. */
function canonical<T extends string>(values: readonly T[], value: string | null | undefined): T | undefined {
  const at = value == null ? -1 : (values as readonly string[]).indexOf(value);
  return at < 0 ? undefined : values[at];
}

/**
 * A grade from the spellings directories use: the contract's (`PK`, `K`, `1`…`12`), NCES's
 * (`KG`, `01`…`12`, `Pre-K`, `Kindergarten`, `Prekindergarten`) in any case. Undefined for
 * anything else, including NCES's `UG` (ungraded), `AE` (adult education) and `N` (none):
 * callers decide whether that is unknown or wrong.
 */
export function parseGrade(text: string): Grade | undefined {
  const given = text.trim().toUpperCase();
  if (/^\d{1,2}$/.test(given)) {
    const n = Number(given);
    return n >= 1 && n <= 12 ? (String(n) as Grade) : undefined;
  }
  // Spaces, dots and hyphens only between letters ("Pre-K", "K.G."): "-1" is no grade.
  const word = /^[A-Z][A-Z\s.-]*$/.test(given) ? given.replace(/[\s.-]+/g, '') : '';
  if (word === 'PK' || word === 'PREK' || word === 'PREKINDERGARTEN') return 'PK';
  if (word === 'K' || word === 'KG' || word === 'KINDERGARTEN') return 'K';
  return undefined;
}

/**
 * NCES's level of a school from its grade span (CCD `LEVEL`): elementary ("primary": lowest
 * PK–3, highest PK–8), middle (lowest 4–7, highest 4–9), high (lowest 7–12, highest the last
 * grade of the school system: 12, or 11 where secondary school ends there, as in Québec), other
 * (any other span, e.g. K–12).
 */
export function levelFromGrades(lowest: Grade, highest: Grade, lastGrade: Grade = '12'): SchoolLevel {
  const lo = rank(lowest);
  const hi = rank(highest);
  if (lo <= rank('3') && hi <= rank('8')) return 'elementary';
  if (lo >= rank('4') && lo <= rank('7') && hi >= rank('4') && hi <= rank('9')) return 'middle';
  if (lo >= rank('7') && hi === rank(lastGrade)) return 'high';
  return 'other';
}

export type KindResult = { ok: true; kind: SchoolKind } | { ok: false; reason: string };

export interface KindInput {
  level?: string | undefined;
  lowest_grade?: string | undefined;
  highest_grade?: string | undefined;
  type?: string | undefined;
  tags?: readonly string[] | undefined;
}

/**
 * Validates what a row says about the school (blank is unknown; anything outside the
 * vocabularies makes the row invalid). A row giving both grades and no level gets NCES's level
 * of that span; a row giving a level keeps it.
 */
export function draftKind(input: KindInput): KindResult {
  const level = input.level?.trim().toLowerCase() || undefined;
  if (level !== undefined && !isOneOf(LEVELS, level))
    return { ok: false, reason: `level "${input.level}" is not one of ${LEVELS.join(', ')}` };
  const grades: (Grade | undefined)[] = [];
  for (const field of ['lowest_grade', 'highest_grade'] as const) {
    const given = input[field]?.trim();
    const grade = given ? parseGrade(given) : undefined;
    if (given && !grade) return { ok: false, reason: `${field} "${given}" is not a grade (PK, K, 1 to 12)` };
    grades.push(grade);
  }
  const [lowestGrade, highestGrade] = grades;
  if (lowestGrade && highestGrade && rank(lowestGrade) > rank(highestGrade))
    return { ok: false, reason: `lowest_grade ${lowestGrade} is above highest_grade ${highestGrade}` };
  const type = input.type?.trim().toLowerCase() || undefined;
  if (type !== undefined && !isOneOf(SCHOOL_TYPES, type))
    return { ok: false, reason: `type "${input.type}" is not one of ${SCHOOL_TYPES.join(', ')}` };
  const tags = new Set<SchoolTag>();
  for (const given of input.tags ?? []) {
    const tag = given.trim().toLowerCase();
    if (tag === '') continue;
    if (!isOneOf(TAGS, tag)) return { ok: false, reason: `tag "${given}" is not one of ${TAGS.join(', ')}` };
    tags.add(tag);
  }
  return {
    ok: true,
    kind: knownKind({
      level: level ?? (lowestGrade && highestGrade ? levelFromGrades(lowestGrade, highestGrade) : undefined),
      lowestGrade,
      highestGrade,
      type,
      tags: [...tags],
    }),
  };
}

/** The known fields only, tags in TAGS order, so that a School never carries `level: null` or `tags: []`. */
export function knownKind(stored: StoredKind): SchoolKind {
  const kind: {
    level?: SchoolLevel;
    lowestGrade?: Grade;
    highestGrade?: Grade;
    type?: SchoolType;
    tags?: SchoolTag[];
  } = {};
  const level = canonical(LEVELS, stored.level);
  const lowestGrade = canonical(GRADES, stored.lowestGrade);
  const highestGrade = canonical(GRADES, stored.highestGrade);
  const type = canonical(SCHOOL_TYPES, stored.type);
  if (level) kind.level = level;
  if (lowestGrade) kind.lowestGrade = lowestGrade;
  if (highestGrade) kind.highestGrade = highestGrade;
  if (type) kind.type = type;
  const tags = TAGS.filter((t) => stored.tags?.includes(t));
  if (tags.length > 0) kind.tags = tags;
  return kind;
}

/** Whether two schools are the same kind of school as far as their directories say (unknown equals unknown). */
export function sameKind(a: StoredKind, b: StoredKind): boolean {
  return (
    (a.level ?? null) === (b.level ?? null) &&
    (a.lowestGrade ?? null) === (b.lowestGrade ?? null) &&
    (a.highestGrade ?? null) === (b.highestGrade ?? null) &&
    (a.type ?? null) === (b.type ?? null) &&
    (a.tags ?? []).join('|') === (b.tags ?? []).join('|')
  );
}
