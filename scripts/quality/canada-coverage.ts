// Which Canadian universities the seed names no school for (issue 42, item 6): `node
// scripts/quality/canada-coverage.ts --hipo FILE`, FILE being world_universities_and_domains.json
// of Hipo/university-domains-list (MIT licence; not committed: the list has no city, so it cannot
// be imported). For each of its Canadian rows whose name says university (or polytechnique, or the
// Royal Military College), the seed is searched for that name in its province with the in-process
// index; a row whose best hit is not named by it (similarity_score below 1) is printed with that
// hit. What is left is read by hand: renamed or merged institutions, other spellings, and the
// institutions the seed really lacks (data/seed/SOURCES.md lists them).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';
import { readSeedSchools } from '../bench/catalog-file.ts';

const { values } = parseArgs({ options: { hipo: { type: 'string' } } });
if (!values.hipo) throw new Error('--hipo FILE: world_universities_and_domains.json of Hipo/university-domains-list');

const PROVINCES: Readonly<Record<string, string>> = {
  Alberta: 'AB',
  'British Columbia': 'BC',
  Manitoba: 'MB',
  'New Brunswick': 'NB',
  'Newfoundland and Labrador': 'NL',
  'Nova Scotia': 'NS',
  Ontario: 'ON',
  'Prince Edward Island': 'PE',
  Quebec: 'QC',
  Saskatchewan: 'SK',
};

interface HipoRow {
  readonly name: string;
  readonly country: string;
  readonly 'state-province': string | null;
  readonly domains: readonly string[];
}

const schools: CatalogSchool[] = readSeedSchools().map((r) => ({
  id: r.schoolid ?? r.schoolname,
  name: r.schoolname,
  city: r.city,
  state: r.stateprovince,
  imageUrl: null,
  aliases: [...(r.aliases ?? [])],
  prominence: r.prominence ?? 0,
}));
const index = new MemoryIndex(buildIndex(schools));
const rows = (JSON.parse(readFileSync(values.hipo, 'utf8')) as HipoRow[]).filter(
  (x) => x.country === 'Canada' && /universit|polytechnique|royal military/i.test(x.name),
);
const unnamed: string[] = [];
for (const row of rows) {
  const state = PROVINCES[row['state-province'] ?? ''];
  // The name before a comma: "University of Toronto, Mississauga" is looked up as its university.
  const plan = planQuery(row.name.split(',')[0]!);
  const [top] = index.search({ plan, offset: 0, limit: 1, ...(state ? { stateCode: state } : {}) }).hits;
  if (!top || top.score < 1)
    unnamed.push(
      `${row['state-province'] ?? '?'} | ${row.name} | ${row.domains.join(',')} | best hit: ${top ? `${top.school.name} (${top.score})` : 'none'}`,
    );
}
process.stdout.write(
  `seed: ${schools.length} schools; Canadian universities in the list: ${rows.length}; named by no school of the seed in their province: ${unnamed.length}\n`,
);
for (const line of unnamed.sort()) process.stdout.write(`  ${line}\n`);
