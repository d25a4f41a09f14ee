import { GATE_HELP, GateUsageError, parseGateArgs } from './args.js';
import { judge } from './judge.js';
import { ScorecardInputError } from './scorecards.js';
import { WaiverFileError } from './waivers.js';

/** `npm run gate -w packages/harness -- --scorecard ...`: judge one run, exit with the gate status. */
function main(argv: string[]): number {
  try {
    const args = parseGateArgs(argv);
    if (args.help) {
      console.log(GATE_HELP);
      return 0;
    }
    return judge(args);
  } catch (error) {
    if (
      error instanceof GateUsageError ||
      error instanceof ScorecardInputError ||
      error instanceof WaiverFileError
    ) {
      console.error(`gate: ${error.message}`);
      return 2;
    }
    console.error(`gate: internal error: ${(error as Error).stack ?? error}`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
