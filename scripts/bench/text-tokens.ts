// What the $text engine stores per school (src/search/mongodb/search-fields.ts): the tokens of
// each document, the keys of the text index (one per distinct token of a document: the index
// holds each term of a document once), and the bytes the `tokens` array takes in the documents
// (BSON, as the driver writes it). Needs no server: it derives the fields as an import would.
// Run: node scripts/bench/text-tokens.ts                      the committed seed
//      node scripts/bench/text-tokens.ts --schools 1000000    a generated catalog, as `npm run bench -- --catalog generated` makes it
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BSON } from 'mongodb';
import { readDrafts } from '../../src/import/read.ts';
import { deriveSearch } from '../../src/search/mongodb/search-fields.ts';
import { fromRoot, readRealSchools, SEED_FILE, writeCatalogFile } from './catalog-file.ts';

const { values } = parseArgs({ options: { schools: { type: 'string' }, seed: { type: 'string' } } });

async function catalogPath(): Promise<{ path: string; label: string; done: () => void }> {
  if (values.schools === undefined) return { path: fromRoot(SEED_FILE), label: SEED_FILE, done: () => undefined };
  const n = Number(values.schools);
  const dir = mkdtempSync(join(tmpdir(), 'text-tokens-'));
  const path = join(dir, 'catalog.ndjson');
  writeCatalogFile(path, n, Number(values.seed ?? 1), readRealSchools());
  return { path, label: `a generated catalog of ${n} schools`, done: () => rmSync(dir, { recursive: true }) };
}

const { path, label, done } = await catalogPath();
try {
  const { drafts } = await readDrafts(path);
  const perSchool: number[] = [];
  let keys = 0;
  let bytes = 0;
  for (const d of drafts) {
    const { tokens } = deriveSearch({ ...d, prominence: d.prominence ?? 0 });
    perSchool.push(tokens.length);
    keys += new Set(tokens).size;
    // The field as stored: its name, the array and each element (a document of one field, less its 5-byte frame).
    bytes += BSON.calculateObjectSize({ tokens }) - 5;
  }
  perSchool.sort((a, b) => a - b);
  const at = (p: number) => perSchool[Math.floor(p * (perSchool.length - 1))]!;
  const mean = perSchool.reduce((a, b) => a + b, 0) / perSchool.length;
  const n = drafts.length;
  console.log(`${label}: ${n.toLocaleString('en-US')} schools`);
  console.log(
    `tokens per school: mean ${mean.toFixed(1)}, median ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)}; ` +
      `text index keys ${keys.toLocaleString('en-US')} (${(keys / n).toFixed(1)} per school); ` +
      `tokens in the documents ${(bytes / 2 ** 20).toFixed(1)} MiB (${Math.round(bytes / n)} B per school)`,
  );
} finally {
  done();
}
