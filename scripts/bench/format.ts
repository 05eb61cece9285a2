// Output primitives of the bench: number formats, plain-text tables, stdout lines.

export const fmt = (n: number, digits = 1): string => n.toFixed(digits);
export const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MiB`;

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>, rightFrom: number): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i >= rightFrom ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const out = (text = ''): void => void process.stdout.write(`${text}\n`);
