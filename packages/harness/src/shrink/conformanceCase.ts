/**
 * A shrunk mismatch written as a conformance case (packages/engine-napi/conformance/cases.ts's
 * format, a sequence of steps on an index of its own): create the index with the run's mapping,
 * load the few documents, send the shrunk request, and expect the baseline's values where the
 * two answers differ. Copied into the conformance suite it fails on the candidate until the
 * difference is fixed; both whole answers ride along for the reader.
 */

/** Values that change run to run whatever the engines do: never pinned. */
const VOLATILE = new Set(['took', '_shards', 'timed_out', '_seq_no', '_primary_term']);

/** Dotted paths (`hits.total.value`, `hits.hits.0._id`) where two answers differ, at most `limit`. */
export function differingPaths(a: unknown, b: unknown, limit = 20): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string[]) => {
    if (out.length >= limit) return;
    if (path.length > 0 && VOLATILE.has(path[path.length - 1] as string)) return;
    const bothArrays = Array.isArray(x) && Array.isArray(y);
    const bothObjects =
      typeof x === 'object' &&
      x !== null &&
      typeof y === 'object' &&
      y !== null &&
      !Array.isArray(x) &&
      !Array.isArray(y);
    if (bothArrays) {
      if (x.length !== y.length) out.push([...path, 'length'].join('.'));
      for (let i = 0; i < Math.min(x.length, y.length); i++) walk(x[i], y[i], [...path, String(i)]);
      return;
    }
    if (bothObjects) {
      const rx = x as Record<string, unknown>;
      const ry = y as Record<string, unknown>;
      for (const key of [...new Set([...Object.keys(rx), ...Object.keys(ry)])].sort())
        walk(rx[key], ry[key], [...path, key]);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y)) out.push(path.join('.'));
  };
  walk(a, b, []);
  return out;
}

/** The value at a dotted path (as the conformance runner reads it), `length` of an array included. */
export function valueAtPath(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const part of path.split('.')) {
    if (Array.isArray(node)) node = part === 'length' ? node.length : node[Number(part)];
    else if (typeof node === 'object' && node !== null) node = (node as Record<string, unknown>)[part];
    else return undefined;
  }
  return node;
}

export interface ShrunkCaseInput {
  rowId: string;
  runId: string;
  summary: string;
  index: string;
  indexBody: object;
  /** Bulk NDJSON line pairs (action, source) of the documents kept. */
  documents: { action: unknown; source: unknown }[];
  /** The shrunk request as sent (its path on `index`). */
  request: { method: string; path: string; body: unknown };
  answers: { candidate: unknown; baseline: unknown };
  stats: {
    requestTests: number;
    requestComplete: boolean;
    documentTests: number;
    documentsBefore: number;
    documentsComplete: boolean;
  };
}

export function shrunkCase(input: ShrunkCaseInput): Record<string, unknown> {
  const { index, answers } = input;
  const expect: Record<string, unknown> = { status: 200 };
  for (const path of differingPaths(answers.candidate, answers.baseline))
    expect[path] = valueAtPath(answers.baseline, path) ?? null;
  const docs = input.documents.length;
  return {
    name: `${input.rowId}: shrunk from run ${input.runId}`,
    note: `The engines' answers differ (${input.summary}). Shrunk automatically: the request in ${input.stats.requestTests} experiments${input.stats.requestComplete ? '' : ' (budget reached: it may shrink further)'}, the documents from ${input.stats.documentsBefore} to ${docs} in ${input.stats.documentTests}${input.stats.documentsComplete ? '' : ' (budget reached: fewer may do)'}. The expectations pin the baseline's answer where the two differ.`,
    missing: `the candidate answers differently from the baseline (${input.summary})`,
    steps: [
      { method: 'PUT', path: `/${index}`, body: input.indexBody, expect: { status: 200 } },
      ...(docs > 0
        ? [
            {
              method: 'POST',
              path: `/${index}/_bulk?refresh=true`,
              ndjson: input.documents.flatMap((d) => [d.action, d.source]),
              expect: { status: 200, errors: false },
            },
          ]
        : []),
      {
        method: input.request.method,
        path: input.request.path,
        body: input.request.body,
        expect,
      },
    ],
    answers,
  };
}
