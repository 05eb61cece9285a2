// NCES's level of a grade span, at each boundary of its definition.
import { describe, expect, it } from 'vitest';
import { draftKind, type Grade, levelFromGrades } from '../../src/domain/catalog/school-kind.ts';

describe('levelFromGrades', () => {
  it.each<[Grade, Grade, string]>([
    ['PK', 'PK', 'elementary'],
    ['K', '5', 'elementary'],
    ['3', '8', 'elementary'],
    ['PK', '9', 'other'],
    ['4', '4', 'middle'],
    ['4', '6', 'middle'],
    ['6', '8', 'middle'],
    ['7', '9', 'middle'],
    ['7', '8', 'middle'],
    ['4', '10', 'other'],
    ['7', '12', 'high'],
    ['9', '12', 'high'],
    ['12', '12', 'high'],
    ['8', '11', 'other'],
    ['K', '12', 'other'],
    ['6', '12', 'other'],
  ])('%s–%s is %s', (lowest, highest, level) => {
    expect(levelFromGrades(lowest, highest)).toBe(level);
  });

  it('counts 11 as the last grade where the school system ends there (Québec)', () => {
    expect(levelFromGrades('7', '11', '11')).toBe('high');
    expect(levelFromGrades('7', '11')).toBe('other');
  });
});

describe('draftKind', () => {
  it('keeps a given level over the grades, and derives none from one grade alone', () => {
    expect(draftKind({ level: 'Other', lowest_grade: '9', highest_grade: '12' })).toEqual({
      ok: true,
      kind: { level: 'other', lowestGrade: '9', highestGrade: '12' },
    });
    expect(draftKind({ lowest_grade: '9' })).toEqual({ ok: true, kind: { lowestGrade: '9' } });
    expect(draftKind({ tags: ['', ' Charter '] })).toEqual({ ok: true, kind: { tags: ['charter'] } });
    expect(draftKind({})).toEqual({ ok: true, kind: {} });
    // A "missing" code is not grade 1.
    expect(draftKind({ lowest_grade: '-1' })).toEqual({
      ok: false,
      reason: 'lowest_grade "-1" is not a grade (PK, K, 1 to 12)',
    });
  });
});
