// Where a name may be typed from, and what else it is called by (src/domain/search/matching.ts).
import { describe, expect, it } from 'vitest';
import { canonicalKey, keyWithoutSchool } from '../../src/domain/search/analysis.ts';
import { distinctiveKeys, equalNameKeys, nameStarts } from '../../src/domain/search/matching.ts';

describe('nameStarts', () => {
  it('is the first word, the first after leading generic words, and the first of a campus', () => {
    expect(nameStarts('University of Notre Dame')).toEqual([0, 1]);
    expect(nameStarts('University of California-Berkeley')).toEqual([0, 1, 2]);
    expect(nameStarts('The University of Texas at Austin')).toEqual([0, 1, 2]);
    expect(nameStarts('École secondaire Pierre-De-Coubertin')).toEqual([0, 2, 3]);
  });

  it('is the first word only when nothing generic leads and no system precedes a hyphen', () => {
    expect(nameStarts('Harvard University')).toEqual([0]);
    expect(nameStarts('Wilkes-Barre Area Career and Technical Center')).toEqual([0]);
    expect(nameStarts('University')).toEqual([0]);
  });
});

describe('distinctiveKeys', () => {
  it("are the name without leading generic words and one trailing, a system's distinctive part and its campus", () => {
    expect(distinctiveKeys('University of Notre Dame')).toEqual(['dame notre']);
    expect(distinctiveKeys('Brown University')).toEqual(['brown']);
    expect(distinctiveKeys('University of California-Berkeley').sort()).toEqual([
      'berkeley',
      'berkeley california',
      'california',
    ]);
    expect(distinctiveKeys('Columbia University in the City of New York')).toContain('columbia');
  });

  it("are not the system's whole name, nor a name without two trailing generic words", () => {
    expect(distinctiveKeys('Concordia University-Irvine')).not.toContain('concordia university');
    expect(distinctiveKeys('Pitt Community College')).toEqual(['community pitt']);
    expect(distinctiveKeys('Lincoln')).toEqual([]);
  });
});

describe('keyWithoutSchool and equalNameKeys', () => {
  it('is the name without a last word "School" (or "Sch"), for any school, ranked or not', () => {
    expect(keyWithoutSchool('Lincoln Elementary School')).toBe(canonicalKey('lincoln elementary'));
    expect(keyWithoutSchool('ALBERTVILLE ELEM SCH')).toBe(canonicalKey('albertville elementary'));
    expect(keyWithoutSchool('Lincoln School')).toBe('lincoln');
    expect(equalNameKeys('Valley Elementary School', false)).toEqual([canonicalKey('valley elementary')]);
  });

  it('is nothing when "School" is not the last word or nothing is left before it', () => {
    expect(keyWithoutSchool('School of Nursing')).toBeUndefined();
    expect(keyWithoutSchool('Lincoln High School Annex')).toBeUndefined();
    expect(keyWithoutSchool('School')).toBeUndefined();
    expect(keyWithoutSchool('The School')).toBeUndefined();
    expect(equalNameKeys('Valley Elementary', false)).toEqual([]);
  });

  it('adds the distinctive parts of a ranked school only', () => {
    expect(equalNameKeys('Brown University', true)).toEqual(['brown']);
    expect(equalNameKeys('Brown University', false)).toEqual([]);
  });
});
