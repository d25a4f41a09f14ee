/**
 * Turns a parsed scorecard.json into a Scorecard or one line that names the file, the field and
 * what is wrong with it, e.g. `scorecards/X/scorecard.json: rows[3].ratio: expected a number, got "fast"`.
 * Shape comes from lib/scorecard-schema.ts; the checks the schema cannot express (counts agree with
 * the rows, row ids are unique, runId is its folder's name) follow it.
 */
import type { z } from 'zod';
import type { Scorecard, Verdict } from './definitions';
import { countsAgree, countVerdicts, VERDICT_ORDER } from './prepare';
import { scorecardSchema } from './scorecard-schema';

export const SUPPORTED_SCHEMA_VERSION = 1;

/** A scorecard file the site refuses to render; the message is the whole explanation. */
export class ScorecardFileError extends Error {}

type Path = readonly PropertyKey[];

/** `rows[3].ratio`, `counts["N/A"]`. */
export function formatPath(path: Path): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out || '(top level)';
}

/** What was actually found, short enough for one line. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  return String(value);
}

function valueAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  tuple: 'a list',
};

function issueText(issue: z.core.$ZodIssue, input: unknown): string {
  const found = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(found)}`;
    case 'invalid_value':
      return `expected ${issue.values
        .map((v) => JSON.stringify(v))
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}, got ${describeValue(found)}`;
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
    case 'invalid_union':
    case 'custom':
      return `${issue.message}, got ${describeValue(found)}`;
    default:
      return issue.message;
  }
}

function fail(file: string, path: Path, text: string): never {
  throw new ScorecardFileError(`${file}: ${formatPath(path)}: ${text}`);
}

/**
 * Validates one parsed file. `file` names it in messages; `folder` is the run folder's name,
 * which the harness makes the run id.
 */
export function validateScorecard(file: string, input: unknown, folder?: string): Scorecard {
  const version = valueAt(input, ['schemaVersion']);
  if (input !== null && typeof input === 'object' && !Array.isArray(input) && version !== 1) {
    // A newer harness is not a corrupt file: say which side to update.
    if (typeof version === 'number') {
      throw new ScorecardFileError(
        `${file} has schemaVersion ${version}, the site reads ${SUPPORTED_SCHEMA_VERSION}: update apps/web`,
      );
    }
  }
  const result = scorecardSchema.safeParse(input);
  if (!result.success) {
    const [first, ...rest] = result.error.issues;
    if (!first) fail(file, [], 'not a scorecard');
    const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
    throw new ScorecardFileError(`${file}: ${formatPath(first.path)}: ${issueText(first, input)}${more}`);
  }
  // The parsed copy drops nothing (objects are loose), but keep the file's own object.
  const card = input as Scorecard;
  if (folder !== undefined && card.runId !== folder) {
    fail(file, ['runId'], `"${card.runId}" is not the name of its folder "${folder}"`);
  }
  const seen = new Map<string, number>();
  card.rows.forEach((row, index) => {
    const first = seen.get(row.id);
    if (first !== undefined) fail(file, ['rows', index, 'id'], `"${row.id}" repeats rows[${first}].id`);
    seen.set(row.id, index);
  });
  // The site shows counts recomputed from the rows; a file whose stored counts differ was edited.
  const counted = countVerdicts(card.rows);
  const wrong = countsAgree(counted, card.counts)
    ? undefined
    : VERDICT_ORDER.find((verdict: Verdict) => counted[verdict] !== card.counts[verdict]);
  if (wrong) {
    fail(
      file,
      ['counts', wrong],
      `${card.counts[wrong]} does not match the ${counted[wrong]} ${wrong} rows in the file`,
    );
  }
  return card;
}
