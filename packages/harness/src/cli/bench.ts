import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBulk } from '../corpus/bulk.js';
import { CORPUS_NAME, generateCorpus } from '../corpus/generate.js';
import { INDEX_NAME } from '../corpus/mapping.js';
import { selectFamilies } from '../families/index.js';
import { appendRun, historyPath, withHistory } from '../history/db.js';
import { realClock } from '../runner/clock.js';
import { measureDisk } from '../runner/disk.js';
import { EngineFailure, Interrupted } from '../runner/errors.js';
import { RowGuard } from '../runner/recover.js';
import { ingestBoth } from '../runner/ingest.js';
import { ingestCell } from '../runner/ingestClients.js';
import { measureReadRow, prewarm } from '../runner/readRow.js';
import { clientCounts, type RunSettings } from '../runner/settings.js';
import { Side } from '../runner/side.js';
import { buildScorecard } from '../scorecard/build.js';
import { buildManifest, engineInfo, gitRevision, REPO_ROOT } from '../scorecard/manifest.js';
import { makeRunId } from '../scorecard/runId.js';
import type { RowResult, Scorecard } from '../scorecard/schema.js';
import { writeSamples, writeScorecard } from '../scorecard/write.js';
import { DISK_ROW_ID, diskRowResult } from '../verdict/diskRowResult.js';
import { ingestCellRowId, ingestCellRowResult } from '../verdict/ingestCellRowResult.js';
import { INGEST_ROW_ID, ingestRowResult } from '../verdict/ingestRowResult.js';
import { readRowResult } from '../verdict/readRowResult.js';
import { startEngines } from './engines.js';
import type { Progress } from './progress.js';
import { aaLine } from './summary.js';

export interface BenchOptions {
  settings: RunSettings;
  out: string;
  candidateUrl?: string;
  baselineUrl?: string;
  progress: Progress;
  abort: AbortSignal;
}

export interface BenchOutcome {
  card?: Scorecard;
  dir?: string;
  exitCode: 0 | 1 | 2 | 3;
  /** Set when the run failed before anything could be written. */
  error?: string;
}

/**
 * One whole run: corpus -> engines -> ingest row -> read rows -> scorecard + history.
 * Whatever happens after the engines are up, they are stopped and what was measured is written.
 */
export async function runBench(opts: BenchOptions): Promise<BenchOutcome> {
  const { settings, progress, abort } = opts;
  const started = new Date();
  const t0 = performance.now();
  const runId = makeRunId(started, gitRevision());
  const runDir = join(REPO_ROOT, '.runs', runId);
  const families = selectFamilies(settings.families);

  progress.log(`run ${runId}: building a ${settings.docs}-doc corpus (seed ${settings.seed})`);
  const corpus = prepareBulk(generateCorpus(settings.seed, settings.docs), settings.bulkSize);

  let engines: Awaited<ReturnType<typeof startEngines>>;
  try {
    engines = await startEngines({ ...opts, aa: settings.aa, runDir, log: progress.log });
  } catch (error) {
    return { exitCode: 2, error: `could not start or reach the engines: ${(error as Error).message}` };
  }
  const pid = (e: typeof engines.candidate) => (e.pid === undefined ? '' : ` (pid ${e.pid})`);
  progress.log(`candidate: ${engines.candidate.product} at ${engines.candidate.url}${pid(engines.candidate)}`);
  progress.log(`baseline:  ${engines.baseline.product} at ${engines.baseline.url}${pid(engines.baseline)}`);

  const sides = {
    candidate: new Side(engines.candidate, settings.connections, settings.timeoutMs, abort),
    baseline: new Side(engines.baseline, settings.connections, settings.timeoutMs, abort),
  };
  // An engine that dies or hangs after the load costs the row it was on, not the run.
  const guard = new RowGuard(sides, INDEX_NAME, corpus.docs, progress.log);
  const rows: RowResult[] = [];
  let status: Scorecard['status'] = 'complete';
  let failure: string | undefined;
  try {
    const counts = clientCounts(settings);
    const cells = counts.filter((n) => n > 1);
    progress.start(4 + families.length * settings.rounds * 2 + cells.length);
    const ingested = await ingestBoth(sides, corpus, INDEX_NAME, settings, (what) =>
      progress.step('ingest', what),
    );
    sides.candidate.check();
    sides.baseline.check();
    progress.advance();
    progress.advance();
    const { candidate: cIngest, baseline: bIngest } = ingested;
    const ingestRow = ingestRowResult({ candidate: cIngest, baseline: bIngest }, corpus.docs, settings);
    if (counts.includes(1)) rows.push(ingestRow);
    await writeSamples(opts.out, runId, INGEST_ROW_ID, {
      candidate: cIngest.bulkMs,
      baseline: bIngest.bulkMs,
    });

    await guard.phase('prewarm', () =>
      prewarm(families, sides, INDEX_NAME, settings, realClock, (role, family) =>
        progress.step('prewarm', `${role} ${family.id}`),
      ),
    );
    progress.advance();
    for (const family of families) {
      progress.step('read', family.id);
      let phases = 0;
      const { id, group, title } = family;
      const meta = { id, group, family: family.family, title, unit: 'ms', betterIs: 'lower' } as const;
      const row = await guard.row(meta, async () => {
        const raw = await measureReadRow(family, sides, INDEX_NAME, settings, realClock, (what) => {
          // Called as each engine-round starts, so the one before it has just finished.
          if (phases++ > 0) progress.advance();
          progress.step('read', `${family.id} ${what}`);
        });
        await writeSamples(opts.out, runId, family.id, {
          candidate: { timed: raw.candidate.timed, warmup: raw.candidate.warmup },
          baseline: { timed: raw.baseline.timed, warmup: raw.baseline.warmup },
        });
        return readRowResult(raw, settings);
      });
      // An unsupported (or crashed) row skips its rounds; count them done either way.
      for (let i = Math.max(phases, 1); i <= settings.rounds * 2; i++) progress.advance();
      rows.push(row);
    }

    // After the reads, so force-merging cannot change what they measured.
    progress.step('disk', 'refresh, force-merge, _stats');
    const diskMeta = {
      id: DISK_ROW_ID,
      group: 'disk',
      family: 'store',
      title: `index store size of ${corpus.docs} docs after refresh and force-merge to 1 segment`,
      unit: 'bytes',
      betterIs: 'lower',
    } as const;
    rows.push(
      await guard.row(diskMeta, async () => {
        const disk = {
          candidate: await measureDisk(sides.candidate, INDEX_NAME, settings.forceMergeTimeoutMs),
          baseline: await measureDisk(sides.baseline, INDEX_NAME, settings.forceMergeTimeoutMs),
        };
        return diskRowResult(disk, corpus.docs, settings.singleMeasurementMargin);
      }),
    );
    progress.advance();
    for (const [k, clients] of cells.entries()) {
      const order = k % 2 === 0 ? (['candidate', 'baseline'] as const) : (['baseline', 'candidate'] as const);
      const cellMeta = {
        id: ingestCellRowId(clients),
        group: 'ingest',
        family: 'bulk',
        title: `bulk ingest of ${corpus.docs} docs, ${clients} concurrent clients, ${settings.bulkSize} docs/bulk, fresh index, until refreshed`,
        unit: 'docs/s',
        betterIs: 'higher',
      } as const;
      const cell = await guard.row(cellMeta, async () => {
        const raw = {} as Record<'candidate' | 'baseline', Awaited<ReturnType<typeof ingestCell>>>;
        for (const role of order) {
          progress.step('ingest', `${role} ${clients} clients`);
          raw[role] = await ingestCell(sides[role], corpus, clients, settings);
          sides[role].check();
        }
        return ingestCellRowResult(
          raw,
          clients,
          corpus.docs,
          corpus.batches.length,
          settings.bulkSize,
          settings.singleMeasurementMargin,
        );
      });
      rows.push(cell);
      progress.advance();
    }
  } catch (error) {
    if (error instanceof Interrupted) {
      status = 'partial';
      failure = 'interrupted (Ctrl-C)';
    } else {
      status = 'failed';
      failure =
        error instanceof EngineFailure ? error.message : `harness error: ${(error as Error).stack ?? error}`;
    }
  } finally {
    // A crash the run survived still fails it: its rows are not a clean comparison.
    const crashed = guard.summary();
    if (crashed !== undefined && status === 'complete') {
      status = 'failed';
      const lost = rows.filter((r) => r.candidate.collapsed || r.baseline.collapsed).length;
      failure = `${crashed}; ${lost} row${lost === 1 ? '' : 's'} recorded collapsed, the others measured`;
    }
    progress.stop();
    await Promise.all([sides.candidate.client.close(), sides.baseline.client.close()]);
    // The sides hold the current processes: a restarted engine is not the one first started.
    await Promise.all([sides.candidate.engine.stop(), sides.baseline.engine.stop()]);
    // Engine data is bulky and rebuilt every run; the logs stay for post-mortems.
    await rm(join(runDir, 'candidate', 'data'), { recursive: true, force: true });
    await rm(join(runDir, 'baseline', 'home', 'data'), { recursive: true, force: true });
    await rm(join(runDir, 'candidate-aa', 'home', 'data'), { recursive: true, force: true });
  }

  const card = buildScorecard({
    runId,
    createdAt: started,
    durationMs: performance.now() - t0,
    status,
    failure,
    manifest: buildManifest({
      candidate: engineInfo(engines.candidate),
      baseline: engineInfo(engines.baseline),
      corpus: { name: CORPUS_NAME, seed: settings.seed, docs: corpus.docs, contentHash: corpus.contentHash },
      settings,
      extra: { index: INDEX_NAME, schedule: `open loop, constant rate`, engineLogs: runDir },
    }),
    rows,
  });
  if (settings.aa) {
    // Both sides are OpenSearch: say so on every verdict and record the false-verdict tally.
    for (const row of card.rows)
      if (row.verdict === 'WIN' || row.verdict === 'LOSE')
        row.reason = `A/A (same engine both sides), so this ${row.verdict} is false: ${row.reason}`;
    card.manifest.settings.aaResult = aaLine(card);
  }
  const dir = await writeScorecard(opts.out, card);
  await withHistory(historyPath(opts.out), (conn) => appendRun(conn, card));
  return { card, dir, exitCode: card.exitCode };
}
