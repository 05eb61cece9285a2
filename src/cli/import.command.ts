// school-search import <file> [--format <format>] [--encoding <name>] [--map <pairs> | --map-file <file>]
//                             [--strict] [--skip-invalid] [--dry-run]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { ENCODING_NAMES, parseEncoding, type Encoding } from '../import/encoding.ts';
import { FORMATS, isFormat } from '../import/format.ts';
import { dryRunImport, importFile, type ImportOptions } from '../import/import.service.ts';
import { MAPPED_SYNTAXES } from '../import/mapped.reader.ts';
import { type ColumnMapping, MappingError, parseMapFile, parseMapOption, toMapping } from '../import/mapping.ts';
import { consoleProgress } from '../import/progress.ts';
import { openExistingStore, openStore, storeLocation } from '../composition/store.ts';
import { parseOrUsage } from './args.ts';
import { describeInvalid, describeReport } from './import-summary.ts';
import { IMPORT_HELP, UsageError, EXIT } from './usage.ts';

export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOrUsage(() =>
    parseArgs({
      args,
      options: {
        format: { type: 'string', short: 'f' },
        encoding: { type: 'string', short: 'e' },
        strict: { type: 'boolean' },
        'skip-invalid': { type: 'boolean' },
        map: { type: 'string', short: 'm', multiple: true },
        'map-file': { type: 'string' },
        'dry-run': { type: 'boolean', short: 'n' },
        help: { type: 'boolean', short: 'h' },
      },
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
  let encoding: Encoding | undefined;
  if (values.encoding !== undefined) {
    encoding = parseEncoding(values.encoding);
    if (!encoding)
      throw new UsageError(
        `--encoding must be ${ENCODING_NAMES} (or another name of these, e.g. utf8, cp1252, iso-8859-1), not "${values.encoding}".`,
      );
  }
  if (format !== undefined && (values.map !== undefined || values['map-file'] !== undefined)) {
    if (!(MAPPED_SYNTAXES as readonly string[]).includes(format))
      throw new UsageError(`With --map or --map-file, --format is ${MAPPED_SYNTAXES.join(', ')}, not "${format}".`);
  }
  const file = positionals[0]!;
  const options: ImportOptions = {
    format,
    encoding,
    strict: values.strict,
    skipInvalid: values['skip-invalid'],
    mapping: mappingOf(values.map, values['map-file']),
    progress: consoleProgress(process.stderr),
  };
  const config = loadConfig();
  const location = storeLocation(config.store);

  if (values['dry-run']) {
    const store = await openExistingStore(config.store);
    try {
      const report = await dryRunImport(store?.schools ?? null, file, options);
      const against = store ? location : `${location} (which does not exist yet)`;
      process.stdout.write(
        describeReport(
          report,
          `Dry run: nothing was written. Importing ${file} (format ${report.format}, encoding ${report.encoding}) into ${against} would give:\n`,
        ),
      );
      if (report.problems.length === 0) return EXIT.ok;
      process.stderr.write(describeInvalid(report));
      return report.skipInvalid ? EXIT.partial : EXIT.failed;
    } finally {
      await store?.close();
    }
  }

  const store = await openStore(config.store);
  try {
    const report = await importFile(store, file, options);
    process.stdout.write(
      describeReport(
        report,
        `Imported ${report.file} (format ${report.format}, encoding ${report.encoding}) into ${location}\n`,
      ),
    );
    if (report.problems.length === 0) return EXIT.ok;
    process.stderr.write(describeInvalid(report));
    return EXIT.partial;
  } finally {
    await store.close();
  }
}

/** The mapping of --map-file, with --map's pairs over it; undefined when neither is given. */
function mappingOf(map: readonly string[] | undefined, mapFile: string | undefined): ColumnMapping | undefined {
  if (map === undefined && mapFile === undefined) return undefined;
  let fromFile: Record<string, string> = {};
  if (mapFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(mapFile, 'utf8');
    } catch (error) {
      throw new MappingError(`Cannot read the mapping file ${mapFile}: ${(error as Error).message}`);
    }
    fromFile = parseMapFile(text, mapFile);
  }
  return toMapping({ ...fromFile, ...parseMapOption(map ?? []) });
}
