// Which schools a probe cannot tell apart from the one it means.
import { canonicalKey } from '../../src/domain/search/analysis.ts';

/**
 * Names people cannot tell apart by what they type: the same equality key (analysis.ts: "Southwest
 * H S" is "Southwest High School"), the word "school" aside ("Lee Middle" and "Lee Middle School"
 * are the same name to a user; a real catalog has hundreds of each).
 */
export function namesakeKey(name: string): string {
  return canonicalKey(name)
    .split(' ')
    .filter((w) => w !== 'school')
    .join(' ');
}
