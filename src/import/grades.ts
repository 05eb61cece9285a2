// Grades as the US directories write them, read into the contract's PK, K, 1…12.
import { type Grade, parseGrade } from '../domain/catalog/school-kind.ts';

/**
 * A CCD grade: the official layout's `PK`, `KG`, `01`…`12`, `13` and the Urban Institute
 * extract's `Pre-K`, `Kindergarten`, `1`…`12`. Grade 13 (a fifth year of high school) is read as
 * 12, the highest the contract has. `UG` (ungraded), `AE` (adult education), `N` (none), `M`
 * (missing), "Not applicable", "Ungraded" and blanks are unknown: undefined.
 */
export function ccdGrade(text: string | undefined): Grade | undefined {
  if (text === undefined) return undefined;
  return text.trim() === '13' ? '12' : parseGrade(text);
}

/**
 * A PSS grade code (`LOGR<year>`, `HIGR<year>`; HIFLD's START_GRAD and END_GRADE): 1 ungraded
 * (unknown), 2 pre-kindergarten, 3 kindergarten, 4 transitional kindergarten (K), 5 transitional
 * first grade (1), 6–17 grades 1–12 (grade = code − 5).
 */
export function pssGrade(code: string | undefined): Grade | undefined {
  const n = Number(code?.trim() || NaN);
  if (n === 2) return 'PK';
  if (n === 3 || n === 4) return 'K';
  if (n === 5) return '1';
  if (Number.isInteger(n) && n >= 6 && n <= 17) return String(n - 5) as Grade;
  return undefined;
}
