// Progress of the two phases of an import. The service only calls a ProgressReporter; what the
// user sees depends on where stderr goes: a redrawn bar on a terminal, a few lines in a log.
import cliProgress from 'cli-progress';

export type ImportPhase = 'read' | 'write';

export interface ProgressReporter {
  /** `total` is bytes for 'read' and schools for 'write'. */
  start(phase: ImportPhase, total: number): void;
  update(done: number): void;
  stop(): void;
}

export const silentProgress: ProgressReporter = { start() {}, update() {}, stop() {} };

const LABELS: Record<ImportPhase, { title: string; unit: string }> = {
  read: { title: 'reading', unit: 'bytes' },
  write: { title: 'writing', unit: 'schools' },
};

export function consoleProgress(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  return stream.isTTY ? barProgress(stream) : lineProgress(stream);
}

function barProgress(stream: NodeJS.WriteStream): ProgressReporter {
  let bar: cliProgress.SingleBar | undefined;
  return {
    start(phase, total) {
      const { title, unit } = LABELS[phase];
      bar = new cliProgress.SingleBar(
        { stream, format: `${title.padEnd(8)} [{bar}] {percentage}% | {value}/{total} ${unit}`, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    update(done) {
      bar?.update(done);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}

/** Not a terminal: one line at the start, at each quarter and at the end, nothing redrawn. */
function lineProgress(stream: NodeJS.WriteStream): ProgressReporter {
  let phase: ImportPhase = 'read';
  let total = 0;
  let shown = -1;
  const show = (done: number) => {
    const quarter = total === 0 ? 4 : Math.floor((done / total) * 4);
    if (quarter <= shown) return;
    shown = quarter;
    const { title, unit } = LABELS[phase];
    stream.write(`${title}: ${quarter * 25}% (${done} of ${total} ${unit})\n`);
  };
  return {
    start(next, size) {
      phase = next;
      total = size;
      shown = -1;
      show(0);
    },
    update: show,
    stop() {
      show(total);
    },
  };
}
