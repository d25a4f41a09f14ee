/**
 * Running one test section on one engine: its file's setup, its steps, its file's teardown, with
 * a fresh stash, as Elasticsearch's YAML runner does. The caller wipes the engine afterwards.
 */
import { checkValue, type Failure, isFalsy } from './assertions.js';
import { type Answer, send } from './client.js';
import { javaPattern, patternOf } from './javaRegex.js';
import { inRange, JUDGED_AS, skipReason } from './skip.js';
import { type ApiSpecs, buildRequest, ParamError } from './spec.js';
import { evaluate, Stash, stringOf } from './stash.js';
import type { DoStep, Step, TestFile, TestSection } from './testFile.js';

export type Verdict = 'pass' | 'fail' | 'skip';

export interface Outcome {
  verdict: Verdict;
  /** Why it failed or was skipped. */
  reason?: string;
}

/** HTTP statuses each named `catch` expects; `request` is any other error. */
const CATCHES: Record<string, (status: number) => boolean> = {
  bad_request: (s) => s === 400,
  unauthorized: (s) => s === 401,
  forbidden: (s) => s === 403,
  missing: (s) => s === 404,
  request_timeout: (s) => s === 408,
  conflict: (s) => s === 409,
  unavailable: (s) => s === 503,
  request: (s) => s >= 400 && ![400, 401, 403, 404, 408, 409].includes(s),
};

/** One warning header's message: `299 Agent "message" "date"`, unescaped. */
export function warningMessage(header: string): string | undefined {
  const m = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/.exec(header.trim());
  if (!m?.[1]) return undefined;
  const text = m[1].replace(/\\(.)/g, '$1');
  try {
    return decodeURIComponent(text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    return text;
  }
}

/** Expected warnings all came; nothing else came but allowed ones and types-removal notices. */
function checkWarnings(step: DoStep, answer: Answer): Failure {
  const expected = new Set(step.warnings);
  const unexpected: string[] = [];
  for (const header of answer.warnings) {
    const message = warningMessage(header);
    if (message === undefined) {
      unexpected.push(header);
      continue;
    }
    if (message.startsWith('[types removal]')) continue;
    if (step.allowedWarnings.includes(message)) continue;
    if (expected.delete(message)) continue;
    unexpected.push(message);
  }
  const problems = [
    unexpected.length > 0 ? `unexpected warnings [${unexpected.join(' | ')}]` : '',
    expected.size > 0 ? `missing warnings [${[...expected].join(' | ')}]` : '',
  ].filter(Boolean);
  return problems.length > 0 ? problems.join('; ') : undefined;
}

class Execution {
  readonly stash = new Stash();
  last: Answer | undefined;

  constructor(
    private readonly base: string,
    private readonly specs: ApiSpecs,
  ) {}

  private async call(step: DoStep): Promise<Failure> {
    if (step.catch === 'param') {
      // The client refuses such a call before sending it; nothing reaches the engine.
      return undefined;
    }
    if (step.nodeVersion !== undefined && !inRange(step.nodeVersion))
      return `no node of version ${JUDGED_AS} fits node_selector ${step.nodeVersion}`;
    const params = this.stash.replace(step.params) as Record<string, unknown>;
    const headers = this.stash.replace(step.headers) as Record<string, string>;
    let answer: Answer;
    let ignored: number[] = [];
    try {
      const built = buildRequest(this.specs, step.api, params);
      ignored = built.ignore;
      answer = await send(this.base, built, headers);
    } catch (error) {
      if (error instanceof ParamError) return `client refused the call: ${error.message}`;
      return `no answer to ${step.api}: ${(error as Error).message}`;
    }
    this.last = answer;
    this.stash.set('body', answer.isJson ? answer.json : answer.text);
    const isError =
      answer.status >= 400 &&
      !(answer.method === 'HEAD' && answer.status === 404) &&
      !ignored.includes(answer.status);
    const said = `${step.api} answered ${answer.status} ${answer.text.slice(0, 400)}`;
    if (step.catch !== undefined) {
      if (!isError) return `expected an error (catch: ${step.catch}); ${said}`;
      const named = CATCHES[step.catch];
      if (named) return named(answer.status) ? undefined : `expected catch ${step.catch}; ${said}`;
      const pattern = patternOf(step.catch);
      if (pattern === undefined) return `unknown catch ${step.catch}`;
      const error = (answer.json as Record<string, unknown> | undefined)?.error;
      if (error === undefined) return `expected an error body matching ${step.catch}; ${said}`;
      return javaPattern(pattern, false).test(stringOf(error))
        ? undefined
        : `error does not match ${step.catch}: ${stringOf(error).slice(0, 400)}`;
    }
    if (isError) return `expected success; ${said}`;
    return checkWarnings(step, answer);
  }

  /** The value an assertion looks at: a stash reference, or a path into the last answer. */
  private actual(path: string): unknown {
    if (path.startsWith('$') && this.stash.refersTo(path)) return this.stash.value(path);
    const answer = this.last;
    if (!answer) return undefined;
    if (!answer.isJson) return path === '' && answer.method === 'HEAD' ? answer.status < 400 : undefined;
    return evaluate(answer.json, path, this.stash);
  }

  async step(step: Step): Promise<Failure> {
    try {
      switch (step.op) {
        case 'skip':
          return undefined;
        case 'do':
          return await this.call(step);
        case 'set':
          this.stash.set(step.name, this.actual(step.path));
          return undefined;
        case 'transform_and_set':
          return this.transform(step.name, step.expression);
        case 'is_true':
          return isFalsy(this.actual(step.path))
            ? `is_true ${step.path}: got ${JSON.stringify(this.actual(step.path))}`
            : undefined;
        case 'is_false':
          return isFalsy(this.actual(step.path))
            ? undefined
            : `is_false ${step.path}: got ${JSON.stringify(this.actual(step.path))?.slice(0, 300)}`;
        case 'unsupported':
          return `the runner has no step ${step.name}`;
        default: {
          const expected = this.stash.replace(step.expected);
          const failure = checkValue(step.op, this.actual(step.path), expected);
          return failure ? `${step.op} ${step.path}: ${failure}` : undefined;
        }
      }
    } catch (error) {
      return `${step.op}: ${(error as Error).message}`;
    }
  }

  /** `#base64EncodeCredentials(user,password)`: the only transformation the suite defines. */
  private transform(name: string, expression: string): Failure {
    const m = /^#base64EncodeCredentials\((.+),(.+)\)$/.exec(expression.trim());
    if (!m) {
      this.stash.set(name, expression);
      return undefined;
    }
    const user = String(this.actual((m[1] as string).trim()));
    const password = String(this.actual((m[2] as string).trim()));
    this.stash.set(name, Buffer.from(`${user}:${password}`).toString('base64'));
    return undefined;
  }
}

/** Why `steps` (a setup, or a test) are skipped, from their leading `skip`, if any. */
export function skipOf(steps: Step[]): string | undefined {
  const first = steps[0];
  return first?.op === 'skip' ? skipReason(first) : undefined;
}

async function runSteps(run: Execution, steps: Step[], phase: string): Promise<Failure> {
  for (const [i, step] of steps.entries()) {
    const failure = await run.step(step);
    if (failure) return `${phase} step ${i + 1} (${step.op === 'do' ? step.api : step.op}): ${failure}`;
  }
  return undefined;
}

/** Runs one test of `file` on the engine at `base`. */
export async function runTest(
  base: string,
  specs: ApiSpecs,
  file: TestFile,
  test: TestSection,
): Promise<Outcome> {
  const skipped = skipOf(file.setup) ?? skipOf(test.steps);
  if (skipped) return { verdict: 'skip', reason: skipped };
  const run = new Execution(base, specs);
  const failure = (await runSteps(run, file.setup, 'setup')) ?? (await runSteps(run, test.steps, 'test'));
  const teardown = await runSteps(run, file.teardown, 'teardown');
  const reason = failure ?? teardown;
  return reason ? { verdict: 'fail', reason } : { verdict: 'pass' };
}
