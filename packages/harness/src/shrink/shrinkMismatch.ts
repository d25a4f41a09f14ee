import { indexBodyFor, type PreparedCorpus } from '../corpus/bulk.js';
import { compareSignals } from '../families/compare.js';
import type { Family, Signal } from '../families/types.js';
import type { HttpResponse } from '../load/http.js';
import { wireRequest } from '../load/readPhase.js';
import type { Role } from '../scorecard/schema.js';
import { shrunkCase } from './conformanceCase.js';
import { type Budget, ddmin } from './ddmin.js';
import { shrinkRequest } from './shrinkRequest.js';

/** What the shrinker sends through: an engine's `send` (load/side.ts's Side has it). */
export interface ShrinkEngine {
  send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: string | Buffer,
    timeoutMs?: number,
  ): Promise<HttpResponse>;
}

export interface ShrinkTarget {
  rowId: string;
  runId: string;
  family: Family;
  /** The index the row read (the corpus). */
  index: string;
  /** The request body the engines disagreed on, and what differed. */
  body: Record<string, unknown>;
  summary: string;
}

export interface ShrinkBudgets {
  request: Budget;
  documents: Budget;
  /** The scratch index the document subsets go into (dropped at the end). */
  scratchIndex: string;
  timeoutMs: number;
}

export interface ShrinkResult {
  /** The conformance case (conformanceCase.ts), or why there is none. */
  case?: Record<string, unknown>;
  skipped?: string;
  stats?: {
    requestTests: number;
    documentTests: number;
    documentsBefore: number;
    documents: number;
  };
}

const ROLES: readonly Role[] = ['candidate', 'baseline'];

/** More documents than this left: the case file would be the corpus again, so none is written. */
export const MAX_CASE_DOCUMENTS = 1000;

/** Each document's action and source lines, as byte ranges of the corpus's bulk bodies. */
function documentLines(corpus: PreparedCorpus): { batch: number; start: number; end: number }[] {
  const out: { batch: number; start: number; end: number }[] = [];
  corpus.batches.forEach((b, batch) => {
    let start = 0;
    while (start < b.body.length) {
      const firstEnd = b.body.indexOf(10, start);
      const secondEnd = b.body.indexOf(10, firstEnd + 1);
      if (firstEnd < 0 || secondEnd < 0) break;
      out.push({ batch, start, end: secondEnd + 1 });
      start = secondEnd + 1;
    }
  });
  return out;
}

/**
 * Shrink one mismatch: first the request (on the run's index, whose documents the disagreement
 * was seen on), then the documents (ddmin over the corpus, each subset loaded into a scratch
 * index on both engines), each within its budget, judged by the row's own comparison of result
 * signals. Returns the conformance case of what is left, with both engines' whole answers.
 */
export async function shrinkMismatch(
  target: ShrinkTarget,
  engines: Record<Role, ShrinkEngine>,
  corpus: PreparedCorpus,
  budgets: ShrinkBudgets,
): Promise<ShrinkResult> {
  const { family } = target;
  if (family.endpoint === '_msearch')
    return { skipped: 'an _msearch row: its bodies are NDJSON, not one request' };
  const ask = async (index: string, body: Record<string, unknown>) => {
    const wire = wireRequest(family, index, body);
    const replies = await Promise.all(
      ROLES.map((role) => engines[role].send('POST', wire.path, wire.body, budgets.timeoutMs)),
    );
    return {
      wire,
      replies: Object.fromEntries(ROLES.map((r, i) => [r, replies[i] as HttpResponse])) as Record<
        Role,
        HttpResponse
      >,
    };
  };
  // The row's own judgement: both answered 2xx, both answers read, and their signals differ.
  const differs = async (index: string, body: Record<string, unknown>): Promise<boolean> => {
    const { replies } = await ask(index, body);
    const signals: Partial<Record<Role, Signal>> = {};
    for (const role of ROLES) {
      const r = replies[role];
      if (r.status < 200 || r.status >= 300) return false;
      try {
        signals[role] = family.signal(JSON.parse(r.text));
      } catch {
        return false;
      }
    }
    return compareSignals(signals.candidate as Signal, signals.baseline as Signal) !== undefined;
  };
  if (!(await differs(target.index, target.body)))
    return {
      skipped: 'the recorded request no longer differs on the run index (the difference did not repeat)',
    };
  const request = await shrinkRequest(target.body, (b) => differs(target.index, b), budgets.request);

  // Documents: each subset into the scratch index on both engines, then the shrunk request on it.
  const lines = documentLines(corpus);
  const positions = lines.map((_, i) => i);
  const scratch = budgets.scratchIndex;
  const bulkOf = (subset: number[]): Buffer =>
    Buffer.concat(
      subset.map((i) => {
        const l = lines[i] as (typeof lines)[number];
        return (corpus.batches[l.batch] as { body: Buffer }).body.subarray(l.start, l.end);
      }),
    );
  const load = async (subset: number[]) => {
    for (const role of ROLES) {
      const engine = engines[role];
      await engine.send('DELETE', `/${scratch}`, undefined, budgets.timeoutMs);
      const created = await engine.send(
        'PUT',
        `/${scratch}`,
        JSON.stringify(indexBodyFor(corpus, role)),
        budgets.timeoutMs,
      );
      if (created.status >= 300)
        throw new Error(
          `${role} refused the scratch index: HTTP ${created.status} ${created.text.slice(0, 200)}`,
        );
      if (subset.length > 0) {
        const res = await engine.send(
          'POST',
          `/${scratch}/_bulk?refresh=true`,
          bulkOf(subset),
          budgets.timeoutMs,
        );
        if (res.status >= 300 || (JSON.parse(res.text) as { errors?: boolean }).errors)
          throw new Error(`${role} refused the documents: HTTP ${res.status}`);
      }
    }
  };
  const failsOn = async (subset: number[]) => {
    await load(subset);
    return differs(scratch, request.body);
  };
  try {
    let documentTests = 1;
    let kept: number[] = [];
    let documentsComplete = true;
    // No documents at all may already show it (an error path, a parse difference).
    if (!(await failsOn([]))) {
      const found = await ddmin(positions, failsOn, budgets.documents);
      documentTests += found.tests;
      kept = found.items;
      documentsComplete = found.complete;
      if (kept.length > MAX_CASE_DOCUMENTS)
        return {
          skipped: `the documents could not be narrowed below ${kept.length} within the budget (${found.tests} loads); the request shrank to ${JSON.stringify(request.body)}`,
        };
      // ddmin's last test may have been a subset that agreed: load what it kept, and check again.
      if (!(await failsOn(kept)))
        return {
          skipped: `the difference did not repeat on the ${kept.length} documents kept (it depends on more than them)`,
        };
      documentTests++;
    }
    const { wire, replies } = await ask(scratch, request.body);
    const parse = (r: HttpResponse) => {
      try {
        return JSON.parse(r.text) as unknown;
      } catch {
        return r.text;
      }
    };
    const documents = kept.map((i) => {
      const text = bulkOf([i]).toString('utf8').split('\n');
      return {
        action: JSON.parse(text[0] as string) as unknown,
        source: JSON.parse(text[1] as string) as unknown,
      };
    });
    const found = shrunkCase({
      rowId: target.rowId,
      runId: target.runId,
      summary: target.summary,
      index: 'shrunk',
      indexBody: indexBodyFor(corpus, 'baseline'),
      documents,
      request: {
        method: 'POST',
        path: wire.path.replace(`/${scratch}/`, '/shrunk/'),
        body: JSON.parse(wire.body),
      },
      answers: { candidate: parse(replies.candidate), baseline: parse(replies.baseline) },
      stats: {
        requestTests: request.tests,
        requestComplete: request.complete,
        documentTests,
        documentsBefore: positions.length,
        documentsComplete,
      },
    });
    return {
      case: found,
      stats: {
        requestTests: request.tests,
        documentTests,
        documentsBefore: positions.length,
        documents: kept.length,
      },
    };
  } finally {
    for (const role of ROLES)
      await engines[role].send('DELETE', `/${scratch}`, undefined, budgets.timeoutMs).catch(() => undefined);
  }
}
