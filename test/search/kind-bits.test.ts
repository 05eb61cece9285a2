// The packed word per document that keeps a school's level, grades, type and tags in the
// in-process index: every value of every field comes back as it went in.
import { describe, expect, test } from 'vitest';
import { GRADES, LEVELS, SCHOOL_TYPES, TAGS } from '../../src/domain/catalog/school-kind.ts';
import { packKind, unpackKind } from '../../src/search/memory/kind-bits.ts';

describe('kind bits', () => {
  test('when nothing is known, then the word is 0 and unpacks to no field at all', () => {
    expect(packKind({})).toBe(0);
    expect(unpackKind(0)).toStrictEqual({});
  });

  test('when each field takes each of its values, then it unpacks to the same, the others untouched', () => {
    for (const level of LEVELS) expect(unpackKind(packKind({ level }))).toStrictEqual({ level });
    for (const type of SCHOOL_TYPES) expect(unpackKind(packKind({ type }))).toStrictEqual({ type });
    for (const lowestGrade of GRADES)
      for (const highestGrade of GRADES)
        expect(unpackKind(packKind({ lowestGrade, highestGrade }))).toStrictEqual({ lowestGrade, highestGrade });
    const all = {
      level: 'postsecondary',
      type: 'postsecondary',
      lowestGrade: '12',
      highestGrade: '12',
      tags: TAGS,
    } as const;
    expect(unpackKind(packKind(all))).toStrictEqual(all);
    for (const tag of TAGS) expect(unpackKind(packKind({ tags: [tag] }))).toStrictEqual({ tags: [tag] });
  });
});
