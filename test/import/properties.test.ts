// Properties of every import, on generated files without ids: rows drawn from small pools of
// names (in several spellings), cities, provinces and locations, so that namesakes, repeats and
// half-known locations are common.
//   - N schools that are pairwise distinct by the rule (name, city, province, and every location
//     field both know) are N schools: none is lost to a merge.
//   - Importing a file again changes nothing and keeps every id.
//   - Shuffling a file's rows keeps the set of ids.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateCode } from '../../src/domain/catalog/state-names.ts';
import { nameSortKey } from '../../src/domain/shared/normalize.ts';
import { readSource } from '../../src/import/read.ts';
import {
  expectCountsAddUp,
  importChecked as importFile,
  dryRunChecked as dryRunImport,
} from '../support/import-report.ts';
import { tempStore, type TempStore } from '../support/temp-store.ts';

interface Row {
  readonly name: string;
  readonly city: string;
  readonly state: string;
  readonly postal: string;
  readonly address: string;
  /** "latitude,longitude", or "," when unknown. */
  readonly point: string;
}

const row: fc.Arbitrary<Row> = fc.record({
  name: fc.constantFrom('École Saint-Joseph', 'Ecole Saint Joseph', 'ÉCOLE SAINT-JOSEPH', 'Lincoln High School'),
  city: fc.constantFrom('Montréal', 'Montreal', 'Saguenay'),
  state: fc.constantFrom('QC', 'qc', 'Québec', 'TX'),
  postal: fc.constantFrom('', 'G7H 3T7', 'g7h3t7', 'G7S 1S1'),
  address: fc.constantFrom('', '1 Main St', '1 MAIN ST.', '2 Main St'),
  point: fc.constantFrom(',', '45.1,-73.1', '45.10001,-73.1', '45.2,-73.2'),
});

const HEADER = 'schoolname,city,stateprovince,postal_code,address,latitude,longitude';
const csv = (rows: readonly Row[]) =>
  `${[HEADER, ...rows.map((r) => [r.name, r.city, r.state, r.postal, r.address, r.point].join(','))].join('\n')}\n`;

/** The rule, written independently of the importer: are two rows one school? */
function sameSchool(a: Row, b: Row): boolean {
  const code = (s: string) => {
    const result = stateCode(s);
    return result.ok ? result.code : s;
  };
  const agree = (x: string, y: string) => x === '' || y === '' || x === y;
  const postal = (p: string) => p.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const point = (p: string) =>
    p === ','
      ? ''
      : p
          .split(',')
          .map((n) => Number(n).toFixed(4))
          .join(',');
  return (
    nameSortKey(a.name) === nameSortKey(b.name) &&
    nameSortKey(a.city) === nameSortKey(b.city) &&
    code(a.state) === code(b.state) &&
    agree(postal(a.postal), postal(b.postal)) &&
    agree(nameSortKey(a.address), nameSortKey(b.address)) &&
    agree(point(a.point), point(b.point))
  );
}

/** The rows that are pairwise different schools, the first of each kept. */
function distinct(rows: readonly Row[]): Row[] {
  const kept: Row[] = [];
  for (const r of rows) if (!kept.some((k) => sameSchool(k, r))) kept.push(r);
  return kept;
}

let t: TempStore;
let files = 0;
const file = (content: string) => t.file(`generated-${files++}.csv`, content);
beforeAll(async () => {
  t = await tempStore();
});
afterAll(async () => {
  await t.close();
});

describe('imports of generated files', () => {
  it('never make fewer than N schools of N distinct ones', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 40 }), async (rows) => {
        const schools = distinct(rows);
        const report = await dryRunImport(null, file(csv(schools)));
        expectCountsAddUp(report);
        expect(report.problems).toEqual([]);
        expect(report.schools).toBe(schools.length);
      }),
      { numRuns: 200 },
    );
  });

  it('merge only rows that the rule says are one school', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 30 }), async (rows) => {
        const report = await dryRunImport(null, file(csv(rows)));
        expectCountsAddUp(report);
        for (const d of report.duplicates) expect(sameSchool(rows[d.line - 2]!, rows[d.replaces - 2]!)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('are idempotent: the second import changes nothing and keeps every id', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 30 }), async (rows) => {
        const path = file(csv(rows));
        const first = await importFile(t.store, path);
        const ids = (await readSource(path)).drafts.map((d) => d.id);
        const second = await importFile(t.store, path);
        expectCountsAddUp(second);
        expect(second.counts).toEqual({ inserted: 0, updated: 0, unchanged: first.schools });
        expect((await readSource(path)).drafts.map((d) => d.id)).toEqual(ids);
        for (const id of ids) expect(await t.store.schools.findById(id)).not.toBeNull();
      }),
      { numRuns: 30 },
    );
  });

  it('give the same set of ids whatever the order of the rows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(row, { maxLength: 30 })
          .chain((rows) => fc.tuple(fc.constant(rows), fc.shuffledSubarray(rows, { minLength: rows.length }))),
        async ([rows, shuffled]) => {
          const ids = async (r: readonly Row[]) => (await readSource(file(csv(r)))).drafts.map((d) => d.id).sort();
          expect(await ids(shuffled)).toEqual(await ids(rows));
        },
      ),
      { numRuns: 200 },
    );
  });
});
