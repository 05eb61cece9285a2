// Integer command-line options of the benchmark scripts: a bad value prints the usage and exits 2.

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
