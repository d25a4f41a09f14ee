import cliProgress from 'cli-progress';

/** What the bench reports while it runs; a bar on a terminal, plain lines otherwise (CI logs). */
export interface Progress {
  start(totalSteps: number): void;
  step(phase: string, row: string): void;
  /** A finished unit of work (one engine's ingest, or one engine-round of a row). */
  advance(): void;
  log(line: string): void;
  stop(): void;
  /** The run's own estimate of the seconds left (run/eta.ts), shown instead of the bar's. */
  estimate(secondsLeft: () => number): void;
}

/** "ETA 14 min 05 s": whole seconds, minutes from a minute up, hours from an hour. */
export function etaWords(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return 'ETA ?';
  const s = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  if (s < 60) return `ETA ${s} s`;
  if (s < 3600) return `ETA ${Math.floor(s / 60)} min ${two(s % 60)} s`;
  return `ETA ${Math.floor(s / 3600)} h ${two(Math.floor((s % 3600) / 60))} min`;
}

export function createProgress(stream: NodeJS.WriteStream = process.stdout): Progress {
  let left: (() => number) | undefined;
  if (!stream.isTTY) {
    let done = 0;
    let total = 0;
    return {
      start: (n) => {
        total = n;
      },
      step: (phase, row) => {
        const eta = left ? ` (${etaWords(left())})` : '';
        stream.write(`[${done}/${total}] ${phase} ${row}${eta}\n`);
      },
      advance: () => {
        done++;
      },
      log: (line) => stream.write(`${line}\n`),
      stop: () => {},
      estimate: (f) => {
        left = f;
      },
    };
  }
  const multi = new cliProgress.MultiBar(
    {
      format: '{bar} {value}/{total} | {eta_words} | {phase} {row}',
      hideCursor: true,
      clearOnComplete: true,
      stream,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | undefined;
  // The estimate moves with time, not only with steps: redraw it every second.
  let timer: NodeJS.Timeout | undefined;
  const words = () => (left ? etaWords(left()) : 'ETA ?');
  return {
    start: (n) => {
      bar = multi.create(n, 0, { phase: '', row: '', eta_words: words() });
      timer = setInterval(() => bar?.update({ eta_words: words() }), 1000);
      timer.unref();
    },
    step: (phase, row) => bar?.update({ phase, row, eta_words: words() }),
    advance: () => bar?.increment({ eta_words: words() }),
    // MultiBar.log prints above the bar without tearing it.
    log: (line) => (bar ? multi.log(`${line}\n`) : stream.write(`${line}\n`)),
    stop: () => {
      if (timer) clearInterval(timer);
      multi.stop();
      bar = undefined;
    },
    estimate: (f) => {
      left = f;
    },
  };
}
