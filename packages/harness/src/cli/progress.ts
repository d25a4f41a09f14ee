import cliProgress from 'cli-progress';

/** What the bench reports while it runs; a bar on a terminal, plain lines otherwise (CI logs). */
export interface Progress {
  start(totalSteps: number): void;
  step(phase: string, row: string): void;
  /** A finished unit of work (one engine's ingest, or one engine-round of a row). */
  advance(): void;
  log(line: string): void;
  stop(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stdout): Progress {
  if (!stream.isTTY) {
    const started = Date.now();
    let done = 0;
    let total = 0;
    return {
      start: (n) => {
        total = n;
      },
      step: (phase, row) => {
        const elapsed = (Date.now() - started) / 1000;
        const eta = done > 0 ? Math.round((elapsed / done) * (total - done)) : undefined;
        stream.write(`[${done}/${total}] ${phase} ${row}${eta === undefined ? '' : ` (ETA ${eta}s)`}\n`);
      },
      advance: () => {
        done++;
      },
      log: (line) => stream.write(`${line}\n`),
      stop: () => {},
    };
  }
  const multi = new cliProgress.MultiBar(
    {
      format: '{bar} {value}/{total} | ETA {eta_formatted} | {phase} {row}',
      hideCursor: true,
      clearOnComplete: true,
      stream,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | undefined;
  return {
    start: (n) => {
      bar = multi.create(n, 0, { phase: '', row: '' });
    },
    step: (phase, row) => bar?.update({ phase, row }),
    advance: () => bar?.increment(),
    // MultiBar.log prints above the bar without tearing it.
    log: (line) => (bar ? multi.log(`${line}\n`) : stream.write(`${line}\n`)),
    stop: () => {
      multi.stop();
      bar = undefined;
    },
  };
}
