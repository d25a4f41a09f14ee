/**
 * The suite's assertions, with the Java runner's semantics: `match` (exact, a `/regex/` found in
 * a string, numbers equal whatever their type), `length`, `is_true`/`is_false`, the four
 * comparisons and `contains`. Each returns undefined when it holds, or why it does not.
 */
import { javaPattern, patternOf } from './javaRegex.js';
import type { ValueOp } from './testFile.js';

export type Failure = string | undefined;

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
};

/** Where two values first differ, or undefined when they are equal (maps exactly, lists in order). */
export function difference(actual: unknown, expected: unknown, at = ''): string | undefined {
  if (typeof expected === 'number' && typeof actual === 'number')
    return actual === expected || (Number.isNaN(actual) && Number.isNaN(expected))
      ? undefined
      : `${at || 'value'}: expected ${expected}, got ${actual}`;
  if (expected === null || expected === undefined)
    return actual === null || actual === undefined
      ? undefined
      : `${at || 'value'}: expected null, got ${show(actual)}`;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at || 'value'}: expected a list, got ${show(actual)}`;
    if (actual.length !== expected.length)
      return `${at || 'value'}: expected ${expected.length} elements, got ${actual.length}: ${show(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(actual[i], expected[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return `${at || 'value'}: expected a map, got ${show(actual)}`;
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (!Object.hasOwn(a, key)) return `${at}.${key}: missing (expected ${show(e[key])})`;
      const d = difference(a[key], e[key], `${at}.${key}`);
      if (d) return d;
    }
    const extra = Object.keys(a).filter((key) => !Object.hasOwn(e, key));
    if (extra.length > 0) return `${at || 'value'}: unexpected keys ${extra.join(', ')}`;
    return undefined;
  }
  return actual === expected
    ? undefined
    : `${at || 'value'}: expected ${show(expected)}, got ${show(actual)}`;
}

function match(actual: unknown, expected: unknown): Failure {
  const pattern = patternOf(expected);
  if (pattern !== undefined) {
    if (typeof actual !== 'string') return `expected a string to match /${pattern}/, got ${show(actual)}`;
    let regex: RegExp;
    try {
      regex = javaPattern(pattern);
    } catch (error) {
      return `pattern /${pattern}/ does not compile: ${(error as Error).message}`;
    }
    return regex.test(actual) ? undefined : `${show(actual)} does not match /${pattern}/`;
  }
  if (expected !== null && (actual === undefined || actual === null))
    return `expected ${show(expected)}, got nothing`;
  return difference(actual, expected);
}

function length(actual: unknown, expected: unknown): Failure {
  const want = Number(expected);
  let got: number;
  if (typeof actual === 'string' || Array.isArray(actual)) got = actual.length;
  else if (actual !== null && typeof actual === 'object') got = Object.keys(actual).length;
  else return `expected something with a length, got ${show(actual)}`;
  return got === want ? undefined : `expected length ${want}, got ${got}`;
}

function compare(op: 'gt' | 'gte' | 'lt' | 'lte', actual: unknown, expected: unknown): Failure {
  if (actual === undefined || actual === null) return `expected a value ${op} ${show(expected)}, got nothing`;
  const both =
    typeof actual === typeof expected && (typeof actual === 'number' || typeof actual === 'string');
  if (!both) return `cannot compare ${show(actual)} with ${show(expected)}`;
  const a = actual as number | string;
  const e = expected as number | string;
  const holds = op === 'gt' ? a > e : op === 'gte' ? a >= e : op === 'lt' ? a < e : a <= e;
  return holds ? undefined : `expected ${show(actual)} ${op} ${show(expected)}`;
}

function contains(actual: unknown, expected: unknown): Failure {
  if (!Array.isArray(actual)) return `expected a list, got ${show(actual)}`;
  const found =
    expected !== null && typeof expected === 'object' && !Array.isArray(expected)
      ? actual.some(
          (item) =>
            item !== null &&
            typeof item === 'object' &&
            Object.entries(expected).every(
              ([k, v]) => difference((item as Record<string, unknown>)[k], v) === undefined,
            ),
        )
      : actual.some((item) => difference(item, expected) === undefined);
  return found ? undefined : `${show(actual)} does not contain ${show(expected)}`;
}

/** Falsy in the suite's sense: absent, null, false, 0 or empty text ("false" and "0" too). */
export function isFalsy(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === false ||
    value === 0 ||
    value === '' ||
    value === 'false' ||
    value === '0'
  );
}

export function checkValue(op: ValueOp, actual: unknown, expected: unknown): Failure {
  switch (op) {
    case 'match':
      return match(actual, expected);
    case 'length':
      return length(actual, expected);
    case 'contains':
      return contains(actual, expected);
    default:
      return compare(op, actual, expected);
  }
}
