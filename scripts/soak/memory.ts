// Is the server's memory bounded? Its resident set (VmRSS) is sampled every second during the
// load. The first quarter of the run is warm-up and not judged: V8 sizes its young generation and
// old space to the allocation rate, SQLite fills its page cache, the match-count cache fills.
// Then the median of the last third of the run is compared with the median of the middle third
// (medians: a sample taken while a login's argon2 holds its 19 MiB is an outlier, not a trend).
//
// The run fails when the last third is higher by more than GROWTH_FLOOR_MIB and by more than
// GROWTH_LIMIT of the middle third. Why these: on a server that does not leak, after the warm-up
// the RSS still moves in steps of 10-30 MiB that are not leaks (V8 growing its semi-spaces or old
// space once more when the machine is busy and the warm-up took longer); a leak keeps adding.
// The medians of the thirds are a third of the run apart, so a 60 s run catches only a gross
// leak (over ~100 MiB/min: ~5 KiB kept per request at 300 req/s); the thresholds do not grow with
// the run, so a 600 s run catches one ten times slower (~10 MiB/min).
// The least-squares slope after the warm-up is printed as information, not judged.
//
// The allocator: glibc raises its mmap threshold after the first large free, after which
// argon2's 19 MiB buffers come from per-thread arenas that keep them: the shipped server's RSS
// then steps up by 20-40 MiB at random moments (when more logins than before overlap), bounded
// (a few buffers per libuv thread) but, in a window of a minute, indistinguishable from a leak.
// So the soak starts the server with MALLOC_MMAP_THRESHOLD_ fixed at 128 KiB (buffers unmapped
// on free) unless --malloc-defaults is given; see MALLOC_ENV.
import { median } from '../shared/stats.ts';

export const WARM_UP_SHARE = 0.25;
export const GROWTH_LIMIT = 0.15;
export const GROWTH_FLOOR_MIB = 32;
export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' } as const;

export interface RssSample {
  /** Seconds since the load started. */
  readonly t: number;
  readonly rss: number;
}

export interface MemoryVerdict {
  readonly start: number;
  readonly afterWarmUp: number;
  readonly end: number;
  /** Highest sample during the load; the process's lifetime peak (VmHWM, seeding included). */
  readonly max: number;
  readonly peak: number;
  /** Medians of the middle and the last third of the run. */
  readonly middle: number;
  readonly last: number;
  /** (last - middle) / middle */
  readonly growth: number;
  readonly slopeMiBPerMin: number;
  readonly samples: number;
  /** Median of each tenth of the run: the shape of the curve. */
  readonly tenths: readonly number[];
  readonly growing: boolean;
}

const MiB = 1048576;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

function slope(points: readonly RssSample[]): number {
  if (points.length < 2) return 0;
  const mt = mean(points.map((p) => p.t));
  const mr = mean(points.map((p) => p.rss));
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.rss - mr);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : num / den; // bytes per second
}

/** `samples` cover [0, seconds]; `peak` is the process's VmHWM. */
export function judgeMemory(samples: readonly RssSample[], seconds: number, peak: number): MemoryVerdict {
  const within = (from: number, to: number) => samples.filter((s) => s.t >= from && s.t <= to).map((s) => s.rss);
  const after = samples.filter((s) => s.t >= WARM_UP_SHARE * seconds);
  const middle = median(within(seconds / 3, (2 * seconds) / 3));
  const last = median(within((2 * seconds) / 3, Infinity));
  const growth = middle > 0 ? (last - middle) / middle : 0;
  const slopeMiBPerMin = (slope(after) * 60) / MiB;
  return {
    start: samples[0]?.rss ?? 0,
    afterWarmUp: after[0]?.rss ?? 0,
    end: samples[samples.length - 1]?.rss ?? 0,
    max: samples.reduce((m, s) => Math.max(m, s.rss), 0),
    peak,
    middle,
    last,
    growth,
    slopeMiBPerMin,
    samples: samples.length,
    tenths: Array.from({ length: 10 }, (_, i) => median(within((i * seconds) / 10, ((i + 1) * seconds) / 10))),
    growing: last - middle > Math.max(GROWTH_FLOOR_MIB * MiB, GROWTH_LIMIT * middle),
  };
}
