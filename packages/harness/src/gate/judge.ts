import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readCountComparison } from '../workcount/countFile.js';
import { evaluateGate, type GateExitCode } from './evaluate.js';
import { renderComment, renderFailureComment } from './render.js';
import {
  displayPath,
  readScorecard,
  resolvePrevious,
  resolveScorecardFile,
  ScorecardInputError,
} from './scorecards.js';
import { loadWaivers } from './waivers.js';

export interface JudgeOptions {
  scorecard: string;
  previous?: string;
  waivers: string;
  summary?: string;
  comment?: string;
  /** Also put the run's SCORECARD.md into the summary file, after the gate's verdict. */
  withScorecardMarkdown?: boolean;
  today?: string;
  artifactUrl?: string;
  print?: (text: string) => void;
}

/** Only an http(s) link goes into the comment; anything else in ARTIFACT_URL is ignored. */
export function artifactUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env.ARTIFACT_URL?.trim();
  return raw && /^https?:\/\/[^\s()<>]+$/.test(raw) ? raw : undefined;
}

function write(file: string, text: string, append: boolean): void {
  mkdirSync(dirname(file), { recursive: true });
  if (append) appendFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
  else writeFileSync(file, text);
}

/** Write the summary and comment for a run that left no scorecard to judge. */
export function reportNoScorecard(
  opts: Pick<JudgeOptions, 'summary' | 'comment' | 'artifactUrl'>,
  message: string,
): void {
  const artifactUrl = opts.artifactUrl ?? artifactUrlFromEnv();
  if (opts.comment) write(opts.comment, renderFailureComment(message, artifactUrl), false);
  if (opts.summary) write(opts.summary, `## 💥 everycell gate: no scorecard (exit 2)\n\n${message}\n`, true);
}

/**
 * Files in, gate status out: read the run, the previous run and the waivers, evaluate, write the
 * summary and comment. Input errors (unreadable scorecard, bad waivers file) are thrown; the
 * caller turns them into exit 2. Shared by the gate CLI and the CI gate runner.
 */
export function judge(opts: JudgeOptions): GateExitCode {
  const print = opts.print ?? ((text: string) => console.log(text));
  const artifactUrl = opts.artifactUrl ?? artifactUrlFromEnv();
  let file: string;
  let card: ReturnType<typeof readScorecard>;
  try {
    file = resolveScorecardFile(opts.scorecard, '--scorecard');
    card = readScorecard(file);
  } catch (error) {
    // The PR still deserves a summary and a comment that say why there is no verdict.
    reportNoScorecard(opts, (error as Error).message);
    throw error;
  }
  const waivers = loadWaivers(opts.waivers);
  const previous = opts.previous ? resolvePrevious(opts.previous, card) : undefined;
  const today = opts.today ?? new Date().toISOString().slice(0, 10);
  // The count check writes its comparison beside the scorecard (workcount/countFile.ts).
  let counts: ReturnType<typeof readCountComparison>;
  try {
    counts = readCountComparison(dirname(file));
  } catch (error) {
    throw new ScorecardInputError((error as Error).message);
  }
  const result = evaluateGate({
    scorecard: card,
    previous: previous?.card,
    waivers,
    today,
    ...(counts ? { counts } : {}),
  });

  const source = `Scorecard: ${displayPath(file)}${previous ? `; previous: ${displayPath(previous.file)}` : ''}; waivers: ${displayPath(opts.waivers)} (${waivers.length}).`;
  const summary = `${result.summaryMarkdown}\n${source}\n`;
  print(summary);
  if (opts.summary) {
    const scorecardMd = join(dirname(file), 'SCORECARD.md');
    const extra =
      opts.withScorecardMarkdown && existsSync(scorecardMd) ? `\n${readFileSync(scorecardMd, 'utf8')}` : '';
    write(opts.summary, `${summary}${extra}`, true);
  }
  if (opts.comment) write(opts.comment, renderComment(card, previous?.card, result, artifactUrl), false);
  return result.exitCode;
}
