// Regenerates the committed seed, data/seed/schools.ndjson.gz, and its colleges alone,
// data/seed/ipeds-hd2022.ndjson (a small real catalog for tests and quick starts), from the publishers' files in
// ../shared/data (data/seed/SOURCES.md) through the importer's own readers and validation, so that
// the seed holds exactly what importing those files would store (same ids, same display names):
// IPEDS colleges, NCES CCD public schools with the EDGE file's locations joined by NCESSCH,
// HIFLD private schools and Statistics Canada's ODEF.
//
//   node scripts/seed/main.ts [--data DIR]           writes the seed
//   node scripts/seed/main.ts [--data DIR] --check   fails if the committed seed differs
//
// --check compares the seed's text, not its gzip bytes: another zlib may compress the same
// text to other bytes.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { SchoolDraft } from '../../src/domain/catalog/catalog.ports.ts';
import { type EdgeLocation, joinLocations, readEdgeRows } from '../../src/import/edge.reader.ts';
import type { RowProblem } from '../../src/import/errors.ts';
import type { ImportFormat } from '../../src/import/format.ts';
import { readInput } from '../../src/import/input.ts';
import { readSource } from '../../src/import/read.ts';

const fromRoot = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
export const SEED_FILE = fromRoot('data/seed/schools.ndjson.gz');
export const COLLEGES_FILE = fromRoot('data/seed/ipeds-hd2022.ndjson');

interface Source {
  readonly file: string;
  readonly format: ImportFormat;
  /** sha256 of the file's text (after gzip), as SOURCES.md documents it. */
  readonly sha256: string;
}

const SOURCES: readonly Source[] = [
  {
    file: 'ipeds-hd2022.csv',
    format: 'ipeds',
    sha256: '6242a95f8d9e72a6f3a38448263ca04778946baaebae5940e52fac85df06bddf',
  },
  {
    file: 'k12/ccd-public-schools-2019-20.csv.gz',
    format: 'ccd',
    sha256: 'bd2dc5227a5581bbeecdff88f4a70a8b7ed3507a7552bed34867a88ae49d7f90',
  },
  {
    file: 'k12/hifld-private-schools.csv.gz',
    format: 'hifld',
    sha256: 'c98fce21122a558d128ce90c1b4e80e3ce045d5189ebf9f5f6419392d033733f',
  },
  {
    file: 'canada/odef-v2-2021-04-07.csv.gz',
    format: 'odef',
    sha256: '9412e6e262e9b381ae2546b8834d6df492787bfa00343503aac1388e0f9117b5',
  },
];
const EDGE: Source = {
  file: 'k12/edge-public-school-locations-2014-15.csv.gz',
  format: 'edge',
  sha256: '52d08a69598db892c3c56cba8f44e861a211dba037a8a1023c21788b729a1a6d',
};

const { values } = parseArgs({ options: { check: { type: 'boolean' }, data: { type: 'string' } } });
const dataDir = values.data ?? fromRoot('../shared/data');

/** The source's text, with a warning when it is not the file SOURCES.md documents. */
async function sourceText(source: Source): Promise<Buffer> {
  const path = `${dataDir}/${source.file}`;
  const text = await readInput(path);
  const sha256 = createHash('sha256').update(text).digest('hex');
  if (sha256 !== source.sha256)
    process.stderr.write(`warning: ${path} is not the file data/seed/SOURCES.md documents (sha256 ${sha256}).\n`);
  return text;
}

interface Part {
  readonly source: Source;
  readonly rows: number;
  readonly drafts: readonly SchoolDraft[];
  readonly skipped: Readonly<Record<string, number>>;
  readonly merged: number;
  readonly problems: readonly RowProblem[];
}

async function readPart(source: Source): Promise<Part> {
  await sourceText(source);
  const result = await readSource(`${dataDir}/${source.file}`, { format: source.format });
  return {
    source,
    rows: result.rows,
    drafts: result.drafts,
    skipped: result.skipped,
    merged: result.duplicates.length,
    problems: result.problems,
  };
}

/** The EDGE file's locations by source key (`nces:<NCESSCH>`). */
async function edgeLocations(): Promise<Map<string, EdgeLocation>> {
  const locations = new Map<string, EdgeLocation>();
  for await (const row of readEdgeRows(await sourceText(EDGE), () => {})) {
    if ('error' in row) throw new Error(`${EDGE.file} line ${row.line}: ${row.error}`);
    locations.set(row.key, row.location);
  }
  return locations;
}

const parts = [];
for (const source of SOURCES) parts.push(await readPart(source));
const ccd = parts.find((p) => p.source.format === 'ccd')!;
const joined = joinLocations(ccd.drafts, await edgeLocations());
if (joined.problems.length > 0)
  throw new Error(`EDGE locations refused: ${joined.problems.map((p) => `line ${p.line}: ${p.reason}`).join('; ')}`);

const drafts: SchoolDraft[] = parts.flatMap((part) => (part === ccd ? joined.drafts : part.drafts));
const ids = new Set(drafts.map((d) => d.id));
if (ids.size !== drafts.length) throw new Error(`${drafts.length - ids.size} schools share an id across sources`);

// Code-unit order, not the locale's: the file must come out byte-identical on every machine.
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const ordered = (list: readonly SchoolDraft[]) =>
  [...list].sort((a, b) => compare(a.name, b.name) || compare(a.id, b.id));
const ndjson = (list: readonly SchoolDraft[]) =>
  list
    .map((d) =>
      JSON.stringify({
        schoolid: d.id,
        schoolname: d.name,
        city: d.city,
        stateprovince: d.state,
        // Undefined (unknown) ones are left out by JSON.stringify.
        address: d.address,
        postal_code: d.postalCode,
        latitude: d.latitude,
        longitude: d.longitude,
        level: d.level,
        lowest_grade: d.lowestGrade,
        highest_grade: d.highestGrade,
        type: d.type,
        tags: d.tags,
        aliases: d.aliases?.length ? d.aliases : undefined,
        prominence: d.prominence || undefined,
        source_key: d.sourceKey,
      }),
    )
    .join('\n')
    .concat('\n');
const text = ndjson(ordered(drafts));
const colleges = ndjson(ordered(parts.find((p) => p.source.format === 'ipeds')!.drafts));

const lines = parts.map((part) => {
  const left = part.problems.length;
  const reasons = new Map<string, number>();
  for (const p of part.problems) reasons.set(p.reason, (reasons.get(p.reason) ?? 0) + 1);
  const why = [...reasons].map(([reason, n]) => `${n} × ${reason}`).join('; ');
  return (
    `  ${part.source.file}: ${part.rows} rows, ${part.drafts.length} schools` +
    (part.merged ? `, ${part.merged} merged` : '') +
    (Object.keys(part.skipped).length ? `, skipped ${JSON.stringify(part.skipped)}` : '') +
    (left ? `, ${left} invalid (${why})` : '') +
    (part === ccd ? `; ${joined.joined} located by ${EDGE.file}` : '')
  );
});
const summary = `${drafts.length} schools\n${lines.join('\n')}`;

const files: ReadonlyArray<readonly [path: string, text: string, gzip: boolean]> = [
  [SEED_FILE, text, true],
  [COLLEGES_FILE, colleges, false],
];
if (values.check) {
  const stale = files.filter(([path, content, gzip]) => {
    try {
      const bytes = readFileSync(path);
      return (gzip ? gunzipSync(bytes) : bytes).toString('utf8') !== content;
    } catch {
      return true; // A missing seed is simply out of date.
    }
  });
  if (stale.length > 0) {
    process.stderr.write(`${stale.map(([path]) => path).join(', ')} out of date: run npm run seed\n${summary}\n`);
    process.exit(1);
  }
  process.stdout.write(`the seed is up to date: ${summary}\n`);
} else {
  for (const [path, content, gzip] of files) writeFileSync(path, gzip ? gzipSync(content, { level: 9 }) : content);
  const outSha = createHash('sha256').update(text).digest('hex');
  process.stdout.write(`wrote ${SEED_FILE} and ${COLLEGES_FILE}: ${summary}\nseed text sha256 ${outSha}\n`);
}
