// school-search import <file> [--format ipeds|csv|ndjson]
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { FORMATS, isFormat } from '../import/format.ts';
import { importFile, type ImportReport } from '../import/import.service.ts';
import { consoleProgress } from '../import/progress.ts';
import { openStore, storeLocation } from '../stores/open.ts';
import { parseOrUsage } from './args.ts';
import { IMPORT_HELP, UsageError, EXIT } from './usage.ts';

export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOrUsage(() =>
    parseArgs({
      args,
      options: { format: { type: 'string', short: 'f' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    }),
  );
  if (values.help) {
    process.stdout.write(IMPORT_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('import takes exactly one file.');
  const format = values.format;
  if (format !== undefined && !isFormat(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${format}".`);
  }
  const config = loadConfig();
  const store = await openStore(config.store);
  try {
    const report = await importFile(store, positionals[0]!, { format, progress: consoleProgress(process.stderr) });
    process.stdout.write(describe(report, storeLocation(config.store)));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

function describe(report: ImportReport, database: string): string {
  const skipped = Object.entries(report.skipped);
  const total = skipped.reduce((n, [, count]) => n + count, 0);
  const row = (label: string, value: number) => `  ${label.padEnd(10)} ${String(value).padStart(7)}\n`;
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return [
    `Imported ${report.file} (format ${report.format}) into ${database}\n`,
    row('rows', report.rows),
    row('inserted', report.counts.inserted),
    row('updated', report.counts.updated),
    row('unchanged', report.counts.unchanged),
    row('skipped', total),
    ...skipped.map(([reason, count]) => `  ${String(count).padStart(18)}  ${reason}\n`),
    `Read in ${seconds(report.timings.readMs)} s, written in ${seconds(report.timings.writeMs)} s.\n`,
  ].join('');
}
