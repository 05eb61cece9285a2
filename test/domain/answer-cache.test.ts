// The answers kept for searches asked again (src/domain/search/answer-cache.ts): within their
// budget, and when room is needed the answer asked least often per byte goes first, answers asked
// long ago age out, and one too large for the budget is never kept.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AnswerCache } from '../../src/domain/search/answer-cache.ts';

/** An answer of about this many bytes kept (its key is a few bytes more). */
const answer = (bytes: number, fill = 'x') => fill.repeat(bytes);

describe('answer cache', () => {
  test('when an answer is kept, then it is given for its key until it goes, and the bytes count it', () => {
    const cache = new AnswerCache(64 * 1024);
    cache.set('a', answer(1000));
    expect(cache.get('a')?.text).toBe(answer(1000));
    expect(cache.get('b')?.text).toBeUndefined();
    expect(cache.bytes).toBeGreaterThan(1000);
    cache.set('a', answer(2000));
    expect(cache.get('a')?.text).toBe(answer(2000));
    expect(cache.bytes).toBeGreaterThan(2000);
    expect(cache.bytes).toBeLessThan(3000);
    cache.clear();
    expect(cache.get('a')?.text).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  test('when an answer stays kept, then every asking gets the same kept object (what the HTTP layer keeps its compressed forms beside), and a new one once replaced', () => {
    const cache = new AnswerCache(64 * 1024);
    const kept = cache.set('a', answer(1000));
    expect(kept?.text).toBe(answer(1000));
    expect(cache.get('a')).toBe(kept);
    expect(cache.get('a')).toBe(kept);
    const replaced = cache.set('a', answer(1000, 'y'));
    expect(replaced).not.toBe(kept);
    expect(cache.get('a')).toBe(replaced);
    expect(cache.set('huge', answer(8 * 1024))).toBeUndefined();
  });

  test('when room is needed, then a large answer goes before small ones asked as often, though it was asked last', () => {
    const cache = new AnswerCache(64 * 1024);
    for (let i = 0; i < 20; i++) cache.set(`small ${i}`, answer(1000));
    cache.set('large', answer(3900));
    for (let i = 0; i < 20; i++) cache.get(`small ${i}`)?.text;
    cache.get('large')?.text;
    // 27 KB kept; 18 answers of 2 KB need 39 KB more: 1 KB over the budget.
    for (let i = 0; i < 18; i++) cache.set(`new ${i}`, answer(2000));
    expect(cache.get('large')?.text).toBeUndefined();
    for (let i = 0; i < 20; i++) expect(cache.get(`small ${i}`)?.text).toBeDefined();
    for (let i = 0; i < 18; i++) expect(cache.get(`new ${i}`)?.text).toBeDefined();
  });

  test('when room is needed, then of answers of one size the one asked least goes first', () => {
    const cache = new AnswerCache(16 * 1024);
    for (const key of ['a', 'b', 'c']) cache.set(key, answer(800));
    for (const _ of [1, 2, 3]) cache.get('a')?.text;
    cache.get('c')?.text;
    // 15 answers of 700 bytes fit beside them; the 16th needs room, and b, asked least, goes.
    for (let i = 0; i < 16; i++) cache.set(`filler ${i}`, answer(700));
    expect(cache.get('b')?.text).toBeUndefined();
    expect(cache.get('a')?.text).toBeDefined();
    expect(cache.get('c')?.text).toBeDefined();
  });

  test('when answers once asked often are asked no more, then newer ones take their place in time', () => {
    const cache = new AnswerCache(16 * 1024);
    cache.set('popular', answer(800));
    for (let i = 0; i < 50; i++) cache.get('popular')?.text;
    // Each newcomer is worth more than the last one let go: the popular answer's worth is overtaken.
    for (let i = 0; i < 100; i++) cache.set(`newcomer ${i}`, answer(800));
    expect(cache.get('popular')?.text).toBeDefined();
    for (let i = 100; i < 2000; i++) cache.set(`newcomer ${i}`, answer(800));
    expect(cache.get('popular')?.text).toBeUndefined();
  });

  test('when an answer is asked thousands of times, then room is still made by letting the least worth go', () => {
    const cache = new AnswerCache(16 * 1024);
    for (const key of ['a', 'b']) cache.set(key, answer(800));
    // Each asking queues the answer's new worth: the queue is made anew many times over.
    for (let i = 0; i < 5000; i++) cache.get('a')?.text;
    // 16 answers of 700 bytes fit beside them; the 17th needs room, and b, asked least, goes.
    for (let i = 0; i < 17; i++) {
      cache.set(`new ${i}`, answer(700));
      expect(cache.bytes).toBeLessThanOrEqual(16 * 1024);
    }
    expect(cache.get('b')?.text).toBeUndefined();
    expect(cache.get('a')?.text).toBeDefined();
    for (let i = 0; i < 17; i++) expect(cache.get(`new ${i}`)?.text).toBeDefined();
  });

  test('when an answer is larger than a sixteenth of the budget, then it is not kept and nothing goes for it', () => {
    const cache = new AnswerCache(16 * 1024);
    cache.set('small', answer(500));
    cache.set('huge', answer(1100));
    expect(cache.get('huge')?.text).toBeUndefined();
    expect(cache.get('small')?.text).toBeDefined();
  });

  test('when a kept answer is replaced by one too large to keep, then the old one is given no more and its bytes are freed', () => {
    const cache = new AnswerCache(16 * 1024);
    cache.set('a', answer(500));
    expect(cache.set('a', answer(1100, 'y'))).toBeUndefined();
    expect(cache.get('a')?.text).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  test('when answers of any sizes are kept, asked and replaced in any order, then the bytes stay within the budget and count what is kept', () => {
    const budget = 32 * 1024;
    const op = fc.oneof(
      fc.record({ set: fc.integer({ min: 0, max: 30 }), bytes: fc.integer({ min: 1, max: 1200 }), wide: fc.boolean() }),
      fc.record({ get: fc.integer({ min: 0, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const cache = new AnswerCache(budget);
        const texts = new Map<string, string>();
        for (const o of ops) {
          if ('set' in o) {
            const text = answer(o.bytes, o.wide ? 'é€' : 'x');
            cache.set(`k${o.set}`, text);
            texts.set(`k${o.set}`, text);
          } else {
            const got = cache.get(`k${o.get}`)?.text;
            if (got !== undefined) expect(got).toBe(texts.get(`k${o.get}`));
          }
          expect(cache.bytes).toBeLessThanOrEqual(budget);
          expect(cache.bytes).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});
