// Pure rules of the domain: the query plan, typo budgets and matching, synonyms, and the school
// draft's validation (what an import or an operator may put in the catalog).
import { describe, expect, test } from 'vitest';
import { draftSchool } from '../../src/domain/catalog/school-draft.ts';
import { matches, osaDistance } from '../../src/domain/search/matching.ts';
import { fold, words } from '../../src/domain/shared/normalize.ts';
import { MAX_QUERY_WORDS, planQuery, typoBudget } from '../../src/domain/search/query.ts';
import { canonicalWord } from '../../src/domain/search/synonyms.ts';

describe('the query plan', () => {
  test('when a query has stop words and repeats, then they count once and stop words only when last', () => {
    expect(planQuery('University of the Arts').words.map((w) => w.text)).toEqual(['university', 'arts']);
    // "of" typed last may be the start of a word: kept, in the place it was first typed.
    expect(planQuery('University of the Arts of').words.map((w) => w.text)).toEqual(['university', 'of', 'arts']);
    expect(planQuery('yale yale').words.map((w) => w.text)).toEqual(['yale']);
    expect(planQuery('the').words.map((w) => w.text)).toEqual(['the']);
  });

  test('when a query is long, then at most the first MAX_QUERY_WORDS words count', () => {
    const long = Array.from({ length: MAX_QUERY_WORDS + 5 }, (_, i) => `w${i}x`).join(' ');
    expect(planQuery(long).words).toHaveLength(MAX_QUERY_WORDS);
  });

  test('when text is folded, then case and accents go, and only letters and digits make words', () => {
    expect(fold('École Polytechnique')).toBe('ecole polytechnique');
    expect(words('Texas A&M -- "Univ."*')).toEqual(['texas', 'a', 'm', 'univ']);
  });
});

describe('typos and matching', () => {
  test('when a word is longer, then more typos are forgiven: none up to 4 letters, 1 from 5, 2 from 9', () => {
    expect([4, 5, 8, 9].map(typoBudget)).toEqual([0, 1, 1, 2]);
    expect(osaDistance('harvrad', 'harvard', 2)).toBe(1);
  });

  test('when the last word is being typed, then a prefix matches; a typo within budget matches a whole word', () => {
    const [prefix] = planQuery('harv').words;
    expect(matches(prefix!, 'harvard')).toBe(true);
    const [typo] = planQuery('unversity college').words;
    expect(matches(typo!, 'university')).toBe(true);
    expect(matches(typo!, 'universal')).toBe(false);
  });

  test('when words are synonyms, then they share a canonical form', () => {
    expect(canonicalWord('univ')).toBe(canonicalWord('university'));
    expect(canonicalWord('harvard')).toBe('harvard');
  });
});

describe('the school draft', () => {
  const valid = { schoolname: '  Rice   University ', city: 'Houston', stateprovince: 'tx', prominence: '40' };

  test('when a row is valid, then it is normalised: spaces, state code case, prominence as a number', () => {
    const result = draftSchool(valid);
    expect(result.ok && result.draft).toMatchObject({ name: 'Rice University', state: 'TX', prominence: 40 });
  });

  test('when a row has no name, an unknown state or a prominence out of range, then it is refused with the reason', () => {
    expect(draftSchool({ ...valid, schoolname: '   ' })).toEqual({ ok: false, reason: 'schoolname is empty' });
    expect(draftSchool({ ...valid, stateprovince: 'ZZ' }).ok).toBe(false);
    expect(draftSchool({ ...valid, prominence: 101 }).ok).toBe(false);
  });
});
