import pc from 'picocolors';
import { HELP, parseBenchArgs, UsageError } from './cli/args.js';
import { createProgress } from './cli/progress.js';
import { renderOutcome, renderSummary } from './cli/summary.js';
import { runBench } from './run/bench.js';
import { runScales } from './run/scales.js';
import type { Scorecard } from './scorecard/schema.js';

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseBenchArgs>;
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`bench: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (args.help) {
    console.log(HELP);
    return 0;
  }

  // First Ctrl-C: stop sending, stop engines, write a partial scorecard. Second: leave now.
  const abort = new AbortController();
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130);
    console.error(
      '\ninterrupted: stopping engines and writing a partial scorecard (Ctrl-C again to quit now)',
    );
    abort.abort();
  });
  process.on('SIGTERM', () => abort.abort());

  for (const note of args.notes ?? []) console.log(pc.yellow(note));
  const many = args.scales.length > 1;
  // Each pass's card (after any --cost-curve-with runs), so a later pass's card carries the curve.
  const passes: Scorecard[] = [...args.costCurveRuns];
  const { exitCode } = await runScales(args.settings, args.scales, abort.signal, async (settings, i) => {
    if (many)
      console.log(
        pc.bold(`pass ${i + 1}/${args.scales.length}: ${settings.docs.toLocaleString('en-US')} docs`),
      );
    const outcome = await runBench({
      ...args,
      settings,
      progress: createProgress(),
      abort: abort.signal,
      earlierPasses: passes,
    });
    if (outcome.card?.status === 'complete') passes.push(outcome.card);
    if (!outcome.card) {
      console.error(pc.red(`bench: ${outcome.error ?? 'the run failed'}`));
      return { exitCode: 2 as const };
    }
    console.log(renderSummary(outcome.card));
    if (outcome.card.failure) console.error(pc.red(`run ${outcome.card.status}: ${outcome.card.failure}`));
    console.log(renderOutcome(outcome.card, outcome.dir ?? args.out));
    return { exitCode: outcome.exitCode };
  });
  // --verdicts-exit-zero (what `npm run bench` passes): a run that completed is a result, whatever
  // its verdicts, and ends with the lines above, not npm's error block. A failed run still exits 2.
  if (args.verdictsExitZero && exitCode !== 2) return 0;
  return exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(pc.red(`bench: harness error: ${(error as Error).stack ?? error}`));
    process.exit(2);
  },
);
