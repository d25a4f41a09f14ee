import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineFailure, Interrupted } from '../../load/errors.js';
import { shrinkMismatch } from '../../shrink/shrinkMismatch.js';
import type { Stage } from '../context.js';

/** Rows shrunk per run at most, and each one's budgets: a run with many differences is not held for hours. */
export const SHRINK_LIMITS = {
  rows: 3,
  requestTests: 200,
  requestSeconds: 60,
  documentTests: 60,
  documentSeconds: 180,
  /** The whole stage: a run is never held more than this for its cases. */
  stageSeconds: 600,
} as const;

/**
 * Mismatches shrunk to cases, after every row is measured (so no timed phase shares the engines
 * with it): for each read row that is N/A because the answers differ, the request the engines
 * disagreed on is made smaller and the documents fewer while they still disagree (src/shrink/),
 * and the result is written as a conformance case beside the card (`shrunk/<row>.json`), linked
 * from the row. A shrink that fails (even an engine dying on a shrunk request) costs its case,
 * never the card.
 */
export const shrinkStage: Stage = {
  name: 'shrink',
  steps: () => 0,
  async run(ctx) {
    const rows = ctx.rows
      .filter(
        (r) =>
          r.verdict === 'N/A' &&
          r.mismatch?.request !== undefined &&
          !r.candidate.collapsed &&
          !r.baseline.collapsed,
      )
      .slice(0, SHRINK_LIMITS.rows);
    const stageEnd = performance.now() + SHRINK_LIMITS.stageSeconds * 1000;
    for (const row of rows) {
      if (performance.now() >= stageEnd) {
        row.shrunk = {
          skipped: `the shrinking stage's ${SHRINK_LIMITS.stageSeconds} s were spent on earlier rows`,
        };
        continue;
      }
      const family = ctx.families.find((f) => f.id === row.id);
      if (!family || !ctx.loaded.candidate || !ctx.loaded.baseline) continue;
      ctx.phases.begin('shrink', row.id, 1);
      ctx.progress.step('shrink', row.id);
      const now = performance.now();
      try {
        const result = await shrinkMismatch(
          {
            rowId: row.id,
            runId: ctx.runId,
            family,
            index: ctx.index,
            body: row.mismatch?.request as Record<string, unknown>,
            summary: row.mismatch?.summary ?? '',
          },
          ctx.sides,
          ctx.corpus,
          {
            request: {
              tests: SHRINK_LIMITS.requestTests,
              deadline: Math.min(stageEnd, now + SHRINK_LIMITS.requestSeconds * 1000),
            },
            documents: {
              tests: SHRINK_LIMITS.documentTests,
              deadline: Math.min(
                stageEnd,
                now + (SHRINK_LIMITS.requestSeconds + SHRINK_LIMITS.documentSeconds) * 1000,
              ),
            },
            scratchIndex: `${ctx.index}-shrink`,
            timeoutMs: ctx.settings.bulkTimeoutMs,
          },
        );
        if (result.case) {
          const path = join('shrunk', `${row.id}.json`);
          await mkdir(join(ctx.out, ctx.runId, 'shrunk'), { recursive: true });
          await writeFile(join(ctx.out, ctx.runId, path), `${JSON.stringify([result.case], null, 2)}\n`);
          row.shrunk = { path, ...result.stats };
          ctx.progress.log(
            `${row.id}: mismatch shrunk to ${path} (${result.stats?.documents} of ${result.stats?.documentsBefore} documents)`,
          );
        } else row.shrunk = { skipped: result.skipped ?? 'not shrunk' };
      } catch (error) {
        if (error instanceof Interrupted) throw error;
        row.shrunk = { skipped: `shrinking failed: ${(error as Error).message}` };
        // An engine that died on a shrunk request ends the shrinking, not the run: every row is measured.
        if (error instanceof EngineFailure) break;
      }
    }
  },
};
