/**
 * One YAML test file of the suite, read into typed steps: an optional `setup` and `teardown`,
 * then test sections, each a list of `do`, assertion, `set` and `skip` steps (the suite's
 * `README.asciidoc` defines them). YAML 1.1, as the Java runner's parser reads it.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export interface SkipStep {
  op: 'skip';
  version?: string;
  features: string[];
  reason?: string;
}

export interface DoStep {
  op: 'do';
  api: string;
  params: Record<string, unknown>;
  catch?: string;
  headers: Record<string, string>;
  warnings: string[];
  allowedWarnings: string[];
  /** `node_selector.version`: which node versions may take the call. */
  nodeVersion?: string;
}

export type ValueOp = 'match' | 'length' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains';

export type Step =
  | SkipStep
  | DoStep
  | { op: ValueOp; path: string; expected: unknown }
  | { op: 'is_true' | 'is_false'; path: string }
  | { op: 'set'; path: string; name: string }
  | { op: 'transform_and_set'; name: string; expression: string }
  | { op: 'unsupported'; name: string };

export interface TestSection {
  name: string;
  steps: Step[];
}

export interface TestFile {
  /** Path under the suite's `test/` folder, e.g. `search/10_source_filtering.yml`. */
  path: string;
  /** The folder: the API the file tests, e.g. `search.aggregation`. */
  api: string;
  setup: Step[];
  teardown: Step[];
  tests: TestSection[];
}

const VALUE_OPS = new Set<string>(['match', 'length', 'gt', 'gte', 'lt', 'lte', 'contains']);

function asList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

function parseDo(body: Record<string, unknown>): DoStep {
  const step: DoStep = { op: 'do', api: '', params: {}, headers: {}, warnings: [], allowedWarnings: [] };
  for (const [key, value] of Object.entries(body ?? {})) {
    if (key === 'catch') step.catch = String(value);
    else if (key === 'headers')
      step.headers = Object.fromEntries(
        Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
    else if (key === 'warnings') step.warnings = asList(value);
    else if (key === 'allowed_warnings') step.allowedWarnings = asList(value);
    else if (key === 'node_selector') {
      const selector = (value ?? {}) as Record<string, unknown>;
      if (selector.version !== undefined) step.nodeVersion = String(selector.version);
    } else {
      step.api = key;
      step.params = (value ?? {}) as Record<string, unknown>;
    }
  }
  return step;
}

function parseStep(raw: unknown): Step[] {
  const entries = Object.entries((raw ?? {}) as Record<string, unknown>);
  const [name, value] = entries[0] ?? ['', undefined];
  if (name === 'skip') {
    const skip = (value ?? {}) as Record<string, unknown>;
    return [
      {
        op: 'skip',
        version: skip.version === undefined ? undefined : String(skip.version),
        features: asList(skip.features),
        reason: skip.reason === undefined ? undefined : String(skip.reason),
      },
    ];
  }
  if (name === 'do') return [parseDo(value as Record<string, unknown>)];
  if (name === 'is_true' || name === 'is_false')
    return [{ op: name, path: value == null ? '' : String(value) }];
  if (name === 'set')
    return Object.entries((value ?? {}) as Record<string, unknown>).map(([path, stash]) => ({
      op: 'set' as const,
      path,
      name: String(stash),
    }));
  if (name === 'transform_and_set')
    return Object.entries((value ?? {}) as Record<string, unknown>).map(([stash, expression]) => ({
      op: 'transform_and_set' as const,
      name: stash,
      expression: String(expression),
    }));
  if (VALUE_OPS.has(name))
    return Object.entries((value ?? {}) as Record<string, unknown>).map(([path, expected]) => ({
      op: name as ValueOp,
      path,
      expected,
    }));
  return [{ op: 'unsupported', name }];
}

function parseSteps(raw: unknown): Step[] {
  return (Array.isArray(raw) ? raw : []).flatMap(parseStep);
}

/**
 * Continuation lines of a double-quoted scalar or a flow collection (`{ ... }`, `[ ... ]`) that
 * sit at or left of the line that opened it: SnakeYAML (the Java runner's parser) reads them,
 * the YAML spec and JavaScript's parsers do not. Such lines get indented past the opening line,
 * which changes no value (flow content and a quoted scalar's line breaks ignore indentation).
 */
export function indentContinuations(text: string): string {
  let quoted = false;
  let depth = 0;
  let base = 0;
  return text
    .split('\n')
    .map((line) => {
      const indent = line.length - line.trimStart().length;
      const open = quoted || depth > 0;
      const out =
        open && line.trim() !== '' && indent <= base ? `${' '.repeat(base + 2 - indent)}${line}` : line;
      if (!open) base = indent;
      let single = false;
      for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (quoted) {
          if (c === '\\') i++;
          else if (c === '"') quoted = false;
        } else if (single) {
          if (c === "'") single = false;
        } else if (c === '"') quoted = true;
        else if (c === "'" && (i === 0 || /[\s[{,:]/.test(line[i - 1] ?? ''))) single = true;
        else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) break;
        else if (c === '{' || c === '[') depth++;
        else if ((c === '}' || c === ']') && depth > 0) depth--;
      }
      return out;
    })
    .join('\n');
}

function parseDocuments(text: string, path: string): unknown[] {
  const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: false });
  const failed = docs.find((doc) => 'errors' in doc && doc.errors.length > 0);
  if (!failed) return docs.map((doc) => ('toJS' in doc ? doc.toJS({ maxAliasCount: -1 }) : null));
  const fixed = indentContinuations(text);
  if (fixed !== text) return parseDocuments(fixed, path);
  throw new Error(`${path}: ${'errors' in failed ? failed.errors[0]?.message : 'unreadable'}`);
}

export function parseTestFile(text: string, path: string): TestFile {
  const file: TestFile = { path, api: path.split('/')[0] ?? path, setup: [], teardown: [], tests: [] };
  for (const content of parseDocuments(text, path)) {
    for (const [name, steps] of Object.entries((content ?? {}) as Record<string, unknown>)) {
      if (name === 'setup') file.setup = parseSteps(steps);
      else if (name === 'teardown') file.teardown = parseSteps(steps);
      else file.tests.push({ name, steps: parseSteps(steps) });
    }
  }
  return file;
}

export function readTestFile(absolute: string, path: string): TestFile {
  return parseTestFile(readFileSync(absolute, 'utf8'), path);
}
