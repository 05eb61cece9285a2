// Regenerates the committed seed, data/seed/ipeds-hd2022.ndjson, from the NCES IPEDS file
// through the importer's own IPEDS reader and validation, so that the seed holds exactly what
// importing the NCES file would store (same ids, same cleaned names).
//
//   node scripts/seed/main.ts [path/to/hd2022.csv]           writes the seed
//   node scripts/seed/main.ts [path/to/hd2022.csv] --check   fails if the committed seed differs
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ImportError } from '../../src/import/errors.ts';
import { readDrafts, type ReadResult } from '../../src/import/read.ts';

const DOCUMENTED_SHA256 = '6242a95f8d9e72a6f3a38448263ca04778946baaebae5940e52fac85df06bddf';
const fromRoot = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const TARGET = fromRoot('data/seed/ipeds-hd2022.ndjson');

const { values, positionals } = parseArgs({ options: { check: { type: 'boolean' } }, allowPositionals: true });
const source = positionals[0] ?? fromRoot('../shared/data/ipeds-hd2022.csv');

const sha256 = createHash('sha256').update(readFileSync(source)).digest('hex');
if (sha256 !== DOCUMENTED_SHA256) {
  process.stderr.write(
    `warning: ${source} is not the file data/seed/SOURCES.md documents (sha256 ${sha256}); update SOURCES.md.\n`,
  );
}

let result: ReadResult;
try {
  result = await readDrafts(source, { format: 'ipeds' });
} catch (error) {
  if (!(error instanceof ImportError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

// Code-unit order, not the locale's: the file must come out byte-identical on every machine.
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const drafts = [...result.drafts].sort((a, b) => compare(a.name, b.name) || compare(a.id, b.id));
const text = drafts
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
      aliases: d.aliases,
      prominence: d.prominence,
    }),
  )
  .join('\n')
  .concat('\n');

const summary = `${result.rows} rows, ${drafts.length} schools, skipped ${JSON.stringify(result.skipped)}`;
if (values.check) {
  let committed = '';
  try {
    committed = readFileSync(TARGET, 'utf8');
  } catch {
    // A missing seed is simply out of date.
  }
  if (committed !== text) {
    process.stderr.write(`${TARGET} is out of date (${summary}): run node scripts/seed/main.ts\n`);
    process.exit(1);
  }
  process.stdout.write(`${TARGET} is up to date (${summary}).\n`);
} else {
  writeFileSync(TARGET, text);
  const outSha = createHash('sha256').update(text).digest('hex');
  process.stdout.write(`wrote ${TARGET}: ${summary}; source sha256 ${sha256}; seed sha256 ${outSha}\n`);
}
