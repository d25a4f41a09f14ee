import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { SCORECARD_SCHEMA_VERSION, type Scorecard, VERDICTS } from '../scorecard/schema.js';
import { comparable } from './comparable.js';

/** A scorecard path the gate cannot use: the message names the file and what to do. */
export class ScorecardInputError extends Error {}

const STATUSES = ['complete', 'partial', 'failed'];

/**
 * Check the fields the gate relies on, so a truncated or foreign file fails with its name and
 * the field instead of a TypeError deep inside the evaluation.
 */
export function parseScorecard(file: string, text: string): Scorecard {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ScorecardInputError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const bad = (field: string, want: string, got: unknown) =>
    new ScorecardInputError(`${file}: ${field} must be ${want}, got ${JSON.stringify(got) ?? 'nothing'}`);
  if (raw === null || typeof raw !== 'object') throw bad('the file', 'a scorecard object', raw);
  const c = raw as Record<string, unknown>;
  // Version 2 only added optional fields and exit status 4: version 1 files read as they are.
  if (c.schemaVersion !== SCORECARD_SCHEMA_VERSION && c.schemaVersion !== 1)
    throw bad(
      'schemaVersion',
      `1 or ${SCORECARD_SCHEMA_VERSION} (the versions this gate reads)`,
      c.schemaVersion,
    );
  if (typeof c.runId !== 'string') throw bad('runId', 'a string', c.runId);
  if (typeof c.createdAt !== 'string') throw bad('createdAt', 'an ISO date string', c.createdAt);
  if (!STATUSES.includes(c.status as string)) throw bad('status', STATUSES.join(' | '), c.status);
  if (![0, 1, 2, 3, 4].includes(c.exitCode as number)) throw bad('exitCode', '0 to 4', c.exitCode);
  const corpus = (c.manifest as { corpus?: Record<string, unknown> } | undefined)?.corpus;
  if (typeof corpus?.name !== 'string' || typeof corpus.docs !== 'number')
    throw bad('manifest.corpus', 'an object with name and docs', corpus);
  if (!Array.isArray(c.rows)) throw bad('rows', 'an array', c.rows);
  c.rows.forEach((row: unknown, i) => {
    const r = row as Record<string, unknown> | null;
    if (typeof r?.id !== 'string') throw bad(`rows[${i}].id`, 'a string', r?.id);
    if (!VERDICTS.includes(r.verdict as never))
      throw bad(`rows[${i}].verdict`, VERDICTS.join(' | '), r.verdict);
  });
  return raw as Scorecard;
}

export function readScorecard(file: string): Scorecard {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScorecardInputError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  return parseScorecard(file, text);
}

/** `<dir>/<run-id>/scorecard.json` for every run folder in dir, newest run id first (ids sort by time). */
export function runFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .reverse()
    .map((name) => join(dir, name, 'scorecard.json'))
    .filter((file) => existsSync(file));
}

/**
 * Resolve what a user passed as a scorecard: the file itself, a run folder, or an --out folder
 * holding run folders (then its newest run).
 */
export function resolveScorecardFile(path: string, flag: string): string {
  const full = resolve(path);
  if (!existsSync(full)) throw new ScorecardInputError(`${flag} ${path}: no such file or folder`);
  if (statSync(full).isFile()) return full;
  const direct = join(full, 'scorecard.json');
  if (existsSync(direct)) return direct;
  const newest = runFiles(full)[0];
  if (newest === undefined)
    throw new ScorecardInputError(
      `${flag} ${path}: no scorecard.json in it or in any <run-id>/ folder under it: pass a scorecard.json, a run folder or an --out folder`,
    );
  return newest;
}

/**
 * Run files that git tracks, when dir is inside a work tree: "the previous main run" means a
 * committed one, not a local run lying around. Outside a repository every run counts.
 */
export function committedRunFiles(dir: string): string[] {
  const all = runFiles(dir);
  let tracked: Set<string>;
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--full-name', '--', '.'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    tracked = new Set(
      out
        .split('\0')
        .filter(Boolean)
        .map((p) => resolve(top, p)),
    );
  } catch {
    return all;
  }
  return all.filter((file) => tracked.has(resolve(file)));
}

/**
 * The run to compare against: the newest complete run comparable with `current`, else the newest
 * complete run (still useful for changed verdicts). Runs that failed or were interrupted are
 * never a baseline, and the current run is never its own previous.
 */
export function choosePrevious(
  files: readonly string[],
  current: Scorecard,
): { file: string; card: Scorecard } | undefined {
  const cards = files
    .map((file) => ({ file, card: readScorecard(file) }))
    .filter(({ card }) => card.status === 'complete' && card.runId !== current.runId)
    .sort((x, y) => y.card.createdAt.localeCompare(x.card.createdAt));
  // Only a comparable run (same corpus, size, rows, baseline, machine) is a previous run: a 1M run
  // of main says nothing about which rows changed in a 20k pull-request run.
  return cards.find(({ card }) => comparable(card, current));
}

/**
 * Resolve --previous: a scorecard file or run folder is used as given; a folder of runs (with
 * its ci/ subfolder) yields the best committed candidate from choosePrevious.
 */
export function resolvePrevious(
  path: string,
  current: Scorecard,
): { file: string; card: Scorecard } | undefined {
  const full = resolve(path);
  if (!existsSync(full)) throw new ScorecardInputError(`--previous ${path}: no such file or folder`);
  if (statSync(full).isFile()) return { file: full, card: readScorecard(full) };
  const direct = join(full, 'scorecard.json');
  if (existsSync(direct)) return { file: direct, card: readScorecard(direct) };
  // main commits its CI-scale runs under ci/ so a PR run has a previous run of the same size.
  const ci = join(full, 'ci');
  const files = [...committedRunFiles(full), ...(existsSync(ci) ? committedRunFiles(ci) : [])];
  return choosePrevious(files, current);
}

/** A path for messages: relative to the working folder when that is shorter. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && rel.length < file.length ? rel : file;
}
