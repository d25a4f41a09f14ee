import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBulk } from '../corpus/bulk.js';
import { corpusById } from '../corpus/corpora.js';
import { selectFamilies } from '../families/index.js';
import { measureRunFloor } from '../floor/measureFloor.js';
import { annotateFromHistory } from '../history/annotate.js';
import { appendRun, historyPath, withHistory } from '../history/db.js';
import { measureReadRowAdaptive } from '../runner/adaptiveReadRow.js';
import { realClock } from '../runner/clock.js';
import { measureDisk } from '../runner/disk.js';
import { EngineFailure, Interrupted } from '../runner/errors.js';
import { ingestBoth } from '../runner/ingest.js';
import { ingestCell } from '../runner/ingestClients.js';
import { measureKnn } from '../runner/knn.js';
import { measureSideMemory } from '../runner/memory.js';
import { measureMixedRow, mixedRowId, selectMixed } from '../runner/mixed.js';
import { prewarm } from '../runner/readRow.js';
import { RowGuard } from '../runner/recover.js';
import { clientCounts, type RunSettings } from '../runner/settings.js';
import { Side } from '../runner/side.js';
import { measureSweep, selectSweeps, sweepRowId } from '../runner/sweep.js';
import { buildScorecard } from '../scorecard/build.js';
import { buildManifest, engineInfo, gitRevision, REPO_ROOT } from '../scorecard/manifest.js';
import { makeRunId } from '../scorecard/runId.js';
import type { Floor, RowResult, Scorecard, Sweep } from '../scorecard/schema.js';
import { writeSamples, writeScorecard } from '../scorecard/write.js';
import { DISK_ROW_ID, diskRowResult } from '../verdict/diskRowResult.js';
import { ingestCellRowId, ingestCellRowResult } from '../verdict/ingestCellRowResult.js';
import { INGEST_ROW_ID, ingestRowResult } from '../verdict/ingestRowResult.js';
import { MEMORY_ROW_META, memoryRowResult } from '../verdict/memoryRowResult.js';
import { mixedRowResult } from '../verdict/mixedRowResult.js';
import { sweepRowResult } from '../verdict/sweepRowResult.js';
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
  /** Docs/s re-indexed during the mixed rows; 0 or absent leaves them out. */
  mixedWriteRate?: number;
  /** Run the latency-at-throughput sweeps of the selected throughput.* rows. */
  sweep?: boolean;
  sweepP99Ms?: number;
}

export interface BenchOutcome {
  card?: Scorecard;
  dir?: string;
  exitCode: Scorecard['exitCode'];
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
  const spec = corpusById(settings.corpus);
  const indexName = spec.index;
  const families = selectFamilies(settings.families, spec.families);
  // The mixed and throughput rows are built on the telemetry corpus's fields.
  const telemetry = spec.id === 'llm-telemetry';
  const writeRate = telemetry ? (opts.mixedWriteRate ?? 0) : 0;
  const mixedFamilies = writeRate > 0 ? selectMixed(settings.families) : [];
  const sweepFamilies = opts.sweep && telemetry ? selectSweeps(settings.families) : [];
  const sweepP99Ms = opts.sweepP99Ms ?? 50;
  const sweeps: Sweep[] = [];

  progress.log(`run ${runId}: building a ${settings.docs}-doc ${spec.id} corpus (seed ${settings.seed})`);
  const corpus = prepareBulk(spec.documents(settings.seed, settings.docs), settings.bulkSize, spec.indexBody);

  let engines: Awaited<ReturnType<typeof startEngines>>;
  try {
    engines = await startEngines({ ...opts, aa: settings.aa, runDir, log: progress.log });
  } catch (error) {
    return { exitCode: 2, error: `could not start or reach the engines: ${(error as Error).message}` };
  }
  const pid = (e: typeof engines.candidate) => (e.pid === undefined ? '' : ` (pid ${e.pid})`);
  progress.log(
    `candidate: ${engines.candidate.product} at ${engines.candidate.url}${pid(engines.candidate)}`,
  );
  progress.log(`baseline:  ${engines.baseline.product} at ${engines.baseline.url}${pid(engines.baseline)}`);

  const sides = {
    candidate: new Side(engines.candidate, settings.connections, settings.timeoutMs, abort),
    baseline: new Side(engines.baseline, settings.connections, settings.timeoutMs, abort),
  };
  // An engine that dies or hangs after the load costs the row it was on, not the run.
  const guard = new RowGuard(sides, indexName, corpus.docs, progress.log);
  const rows: RowResult[] = [];
  let floor: Floor | undefined;
  let status: Scorecard['status'] = 'complete';
  let failure: string | undefined;
  try {
    const counts = clientCounts(settings);
    const cells = counts.filter((n) => n > 1);
    progress.start(
      5 +
        (families.length + mixedFamilies.length) * settings.rounds * 2 +
        sweepFamilies.length +
        (settings.knn ? 2 : 0) +
        cells.length,
    );
    const ingested = await ingestBoth(sides, corpus, indexName, settings, (what) =>
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
      prewarm(families, sides, indexName, settings, realClock, (role, family) =>
        progress.step('prewarm', `${role} ${family.id}`),
      ),
    );
    progress.advance();
    floor = await measureRunFloor(settings, progress.log);
    for (const family of families) {
      progress.step('read', family.id);
      let phases = 0;
      const { id, group, title } = family;
      const meta = { id, group, family: family.family, title, unit: 'ms', betterIs: 'lower' } as const;
      const row = await guard.row(meta, async () => {
        const { raw, row } = await measureReadRowAdaptive(family, sides, indexName, settings, realClock, {
          floor,
          onProgress: (what) => {
            // Called as each engine-round starts, so the one before it has just finished;
            // re-measured rounds are beyond the bar's total and do not advance it.
            if (phases++ > 0 && phases <= settings.rounds * 2) progress.advance();
            progress.step('read', `${family.id} ${what}`);
          },
        });
        await writeSamples(opts.out, runId, family.id, {
          candidate: {
            timed: raw.candidate.timed,
            warmup: raw.candidate.warmup,
            repeated: raw.candidate.repeated,
          },
          baseline: {
            timed: raw.baseline.timed,
            warmup: raw.baseline.warmup,
            repeated: raw.baseline.repeated,
          },
        });
        return row;
      });
      // An unsupported (or crashed) row skips its rounds; count them done either way.
      for (let i = Math.max(Math.min(phases, settings.rounds * 2), 1); i <= settings.rounds * 2; i++)
        progress.advance();
      rows.push(row);
    }

    // After the reads, so it is the memory of an engine that has served them; before the disk
    // row, whose force-merge allocates merge buffers that are no part of serving.
    progress.step('memory', 'VmRSS from /proc/<pid>/status');
    rows.push(
      await guard.row(MEMORY_ROW_META, async () =>
        memoryRowResult(
          {
            candidate: await measureSideMemory(sides.candidate),
            baseline: await measureSideMemory(sides.baseline),
          },
          settings.singleMeasurementMargin,
        ),
      ),
    );
    progress.advance();
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
          candidate: await measureDisk(sides.candidate, indexName, settings.forceMergeTimeoutMs),
          baseline: await measureDisk(sides.baseline, indexName, settings.forceMergeTimeoutMs),
        };
        return diskRowResult(disk, corpus.docs, settings.singleMeasurementMargin);
      }),
    );
    progress.advance();
    if (settings.knn) {
      // Its own index: loading vectors cannot disturb the rows above. Two rows from one
      // measurement, so a crash fails the run (exit 2) rather than being pinned on one row.
      const knnRows = await measureKnn(sides, settings, realClock, (what) => progress.step('knn', what), {
        docs: settings.knnDocs,
        ...(floor ? { floor } : {}),
      });
      rows.push(...knnRows);
      progress.advance();
      progress.advance();
    }
    // After the disk row, so its numbers are of the index the read rows measured.
    for (const family of sweepFamilies) {
      progress.step('sweep', sweepRowId(family));
      const meta = {
        id: sweepRowId(family),
        group: 'throughput',
        family: family.family,
        title: `${family.title}: highest offered rate sustained with p99 <= ${sweepP99Ms} ms`,
        unit: 'req/s',
        betterIs: 'higher',
      } as const;
      const row = await guard.row(meta, async () => {
        const raw = await measureSweep(family, sides, indexName, settings, realClock, undefined, (what) =>
          progress.step('sweep', `${sweepRowId(family)} ${what}`),
        );
        const { sweep, row } = sweepRowResult(
          raw,
          sweepP99Ms,
          settings.singleMeasurementMargin,
          settings.collapseErrorRate,
        );
        sweeps.push(sweep);
        return row;
      });
      rows.push(row);
      progress.advance();
    }
    // Writes re-index corpus documents by id: _count stays the corpus for every later check.
    for (const family of mixedFamilies) {
      const id = mixedRowId(family);
      progress.step('mixed', id);
      let phases = 0;
      const meta = {
        id,
        group: 'mixed',
        family: family.family,
        title: `${family.title}, p99 under ${writeRate} docs/s of re-index writes`,
        unit: 'ms',
        betterIs: 'lower',
      } as const;
      const row = await guard.row(meta, async () => {
        const raw = await measureMixedRow(
          family,
          sides,
          indexName,
          corpus,
          settings,
          realClock,
          { writeRate },
          (what) => {
            if (phases++ > 0) progress.advance();
            progress.step('mixed', `${id} ${what}`);
          },
        );
        await writeSamples(opts.out, runId, id, {
          candidate: { timed: raw.candidate.timed, writes: raw.candidate.writes },
          baseline: { timed: raw.baseline.timed, writes: raw.baseline.writes },
        });
        return mixedRowResult(raw, settings, floor);
      });
      for (let i = Math.max(phases, 1); i <= settings.rounds * 2; i++) progress.advance();
      rows.push(row);
    }
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
      corpus: { name: spec.name, seed: settings.seed, docs: corpus.docs, contentHash: corpus.contentHash },
      settings,
      extra: {
        index: indexName,
        schedule: `open loop, constant rate`,
        engineLogs: runDir,
        mixedWriteRate: writeRate,
        sweep: sweepFamilies.length > 0,
        sweepP99Ms,
      },
    }),
    rows,
  });
  if (floor) card.floor = floor;
  if (sweeps.length > 0) card.sweeps = sweeps;
  if (settings.aa) {
    // Both sides are OpenSearch: say so on every verdict and record the false-verdict tally.
    for (const row of card.rows)
      if (row.verdict === 'WIN' || row.verdict === 'LOSE')
        row.reason = `A/A (same engine both sides), so this ${row.verdict} is false: ${row.reason}`;
    card.manifest.settings.aaResult = aaLine(card);
  }
  const unread = await annotateFromHistory(opts.out, card);
  if (unread) progress.log(unread);
  if (card.coverage?.fell)
    progress.log(
      `coverage fell against ${card.coverage.previousRunId}: N/A ${card.coverage.previousNA} -> ${card.coverage.na}${card.coverage.missingRows.length > 0 ? `, missing ${card.coverage.missingRows.join(', ')}` : ''}`,
    );
  const dir = await writeScorecard(opts.out, card);
  await withHistory(historyPath(opts.out), (conn) => appendRun(conn, card));
  return { card, dir, exitCode: card.exitCode };
}
