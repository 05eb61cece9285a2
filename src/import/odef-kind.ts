// What an ODEF row says a facility is: its level and grades from the ISCED flags, its type and
// tags from Facility_Type (whose vocabulary is each province's own) and OLMS_Status (v2.1).
// docs/import.md has the tables.
import {
  type Grade,
  levelFromGrades,
  type SchoolLevel,
  type SchoolTag,
  type SchoolType,
} from '../domain/catalog/school-kind.ts';

/**
 * The grades each ISCED level spans, by province: ISCED 1 is grades 1–6 everywhere; ISCED 2
 * (lower secondary) is 7–8 in Ontario, whose secondary school starts at grade 9, and 7–9
 * elsewhere; ISCED 3 (upper secondary) is 9–12 in Ontario, 10–11 in Québec (secondary IV–V, then
 * CEGEP) and 10–12 elsewhere. 010 (early childhood) is PK, 020 (pre-primary) K. An
 * approximation of each school's real span: a province-wide band, not the school's own grades.
 */
function iscedGrades(province: string): Record<'010' | '020' | '1' | '2' | '3', readonly [Grade, Grade]> {
  return {
    '010': ['PK', 'PK'],
    '020': ['K', 'K'],
    '1': ['1', '6'],
    '2': province === 'ON' ? ['7', '8'] : ['7', '9'],
    '3': province === 'ON' ? ['9', '12'] : province === 'QC' ? ['10', '11'] : ['10', '12'],
  };
}

const K12_FLAGS = ['010', '020', '1', '2', '3'] as const;

/** Facility_Type → type and tags, for the values ODEF v2 has (others: nothing). */
const FACILITY_TYPES: Readonly<Record<string, { type?: SchoolType; tags?: SchoolTag[] }>> = {
  public: { type: 'public' },
  'public school': { type: 'public' },
  provincial: { type: 'public' },
  installation: { type: 'public' },
  'école gouvernementale': { type: 'public' },
  'strongstart bc': { type: 'public' },
  'alternative learning centre': { type: 'public' },
  'federal first nations': { type: 'public' },
  'first nations school': { type: 'public' },
  hospital: { type: 'public' },
  catholic: { type: 'public', tags: ['catholic'] },
  separate: { type: 'public', tags: ['separate'] },
  'protestant separate': { type: 'public', tags: ['separate'] },
  francophone: { type: 'public', tags: ['francophone'] },
  charter: { type: 'public', tags: ['charter'] },
  private: { type: 'private' },
  'private school': { type: 'private' },
  'independent school': { type: 'private' },
  'ecs private operator': { type: 'private' },
  'private institution': { type: 'private' },
};

/** Facility types of postsecondary institutions that name their control. */
const POSTSECONDARY_CONTROL: Readonly<Record<string, SchoolTag>> = {
  'private institution': 'private_control',
  'collège privé': 'private_control',
  'installation collège privé': 'private_control',
  "établissement d'enseignement collège privé": 'private_control',
  cégep: 'public_control',
};

export interface OdefKind {
  level?: SchoolLevel;
  lowest_grade?: Grade;
  highest_grade?: Grade;
  type?: SchoolType;
  tags: SchoolTag[];
}

/**
 * `flag(name)` is an ISCED column's value ('1' offered, '0' not, undefined unknown); `province`
 * the upper-case code.
 */
export function odefKind(
  flag: (column: string) => string | undefined,
  facilityType: string | undefined,
  olmsStatus: string | undefined,
  province: string,
): OdefKind {
  const offered = K12_FLAGS.filter((f) => flag(`isced${f}`) === '1');
  const postsecondary = flag('isced4plus') === '1';
  const facility = facilityType?.trim().toLowerCase() ?? '';
  const tags: SchoolTag[] = [];
  // Official Language Minority School: French outside Québec (English in Québec, which has no tag).
  if (olmsStatus !== undefined && /^(yes|y|oui|o|1|true)$/i.test(olmsStatus.trim()) && province !== 'QC')
    tags.push('francophone');
  if (offered.length === 0) {
    if (!postsecondary) {
      const known = FACILITY_TYPES[facility];
      return { ...(known?.type ? { type: known.type } : {}), tags: [...(known?.tags ?? []), ...tags] };
    }
    const control = POSTSECONDARY_CONTROL[facility];
    return { level: 'postsecondary', type: 'postsecondary', tags: control ? [control, ...tags] : tags };
  }
  const bands = iscedGrades(province);
  const lowest = bands[offered[0]!][0];
  const highest = bands[offered[offered.length - 1]!][1];
  const known = FACILITY_TYPES[facility];
  return {
    level: levelFromGrades(lowest, highest, province === 'QC' ? '11' : '12'),
    lowest_grade: lowest,
    highest_grade: highest,
    ...(known?.type ? { type: known.type } : {}),
    tags: [...(known?.tags ?? []), ...tags],
  };
}
