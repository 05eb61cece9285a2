// The command-line options of the tools (bench, bench:history, soak): `--help` prints the usage
// and exits 0; a bad integer prints it and exits 2.
import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed options (every one a string or a boolean, as declared), and a reader of integers. */
export function toolOptions<const O extends Options>(usage: string, options: O) {
  const { values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } } as O });
  if ((values as { help?: boolean }).help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  return { values, int: integerOption(usage) };
}

/** A reader of integer options for a script with this usage text. */
export function integerOption(
  usage: string,
): (name: string, raw: string | undefined, fallback: number, min: number) => number {
  return (name, raw, fallback, min) => {
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) {
      process.stderr.write(`${name} must be an integer >= ${min}, not "${raw}".\n${usage}`);
      process.exit(2);
    }
    return n;
  };
}
