// Reads Prometheus's text exposition format (version 0.0.4) as a scraper does, so tests compare
// samples before and after: `name{label="value",…} number` lines, comments skipped.

export type Samples = Map<string, number>;

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    const value = match[3] === '+Inf' ? Infinity : match[3] === '-Inf' ? -Infinity : Number(match[3]);
    samples.set(key(match[1]!, labels), value);
  }
  return samples;
}

/** A sample's value; 0 when absent (a counter with these labels has not been incremented yet). */
export function sample(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  return samples.get(key(name, labels)) ?? 0;
}

export function names(samples: Samples): Set<string> {
  return new Set([...samples.keys()].map((k) => k.replace(/\{.*$/, '')));
}

/** Every label value of the samples of `name`. */
export function labelValues(samples: Samples, name: string, label: string): Set<string> {
  const values = new Set<string>();
  for (const k of samples.keys()) {
    if (k !== name && !k.startsWith(`${name}{`)) continue;
    const m = new RegExp(`[{,]${label}="([^"]*)"`).exec(k);
    if (m) values.add(m[1]!);
  }
  return values;
}

function key(name: string, labels: Record<string, string>): string {
  const sorted = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`)
    .join(',');
  return sorted ? `${name}{${sorted}}` : name;
}
