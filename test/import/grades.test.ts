// Grades as NCES's directories write them: every CCD spelling and every PSS code.
import { describe, expect, it } from 'vitest';
import { ccdGrade, pssGrade } from '../../src/import/grades.ts';

describe('CCD grades', () => {
  it('reads NCES layout codes and the Urban Institute words; 13 as 12; the rest as unknown', () => {
    const read = (values: string[]) => values.map((v) => ccdGrade(v) ?? null);
    expect(read(['PK', 'KG', '01', '09', '12', '13'])).toEqual(['PK', 'K', '1', '9', '12', '12']);
    expect(read(['Pre-K', 'Kindergarten', '1', '12'])).toEqual(['PK', 'K', '1', '12']);
    expect(read(['UG', 'AE', 'N', 'M', 'Ungraded', 'Adult education', 'Not applicable', '-1', '', '0', '14'])).toEqual(
      Array(11).fill(null),
    );
    expect(ccdGrade(undefined)).toBeUndefined();
  });
});

describe('PSS grade codes', () => {
  it('reads 2 as PK, 3 and 4 (transitional K) as K, 5 (transitional 1st) as 1, 6-17 as grade code - 5', () => {
    const codes = Array.from({ length: 19 }, (_, i) => String(i));
    expect(codes.map((c) => pssGrade(c) ?? null)).toEqual([
      null,
      null,
      'PK',
      'K',
      'K',
      '1',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
      null,
    ]);
    expect([pssGrade(''), pssGrade(undefined), pssGrade('x')]).toEqual([undefined, undefined, undefined]);
  });
});
