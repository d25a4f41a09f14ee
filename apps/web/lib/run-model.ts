/**
 * A run's page as data (RunModel in definitions.ts): everything the run overview shows, worked out
 * at build time from the scorecard and its context (its comparable set, the calibration that
 * qualifies it, its neighbours), so the browser renders a run's page from its run.json without the
 * harness's server-side modules. The static pages render the same model on the server. Pure.
 */
import { differingLoads, growth } from '@everycell/harness/costCurve';
import { reproduceCommand } from '@everycell/harness/flags';
import { type Calibration, calibrationFor, calibrationScale } from './calibration';
import { runConformance, runRestSuite } from './conformance';
import type { CostCurveModel, RunModel, Scorecard } from './definitions';
import { engineName, formatMs, productName } from './format';
import { headline } from './headline';
import { levelsInWords } from './interval';
import { countVerdicts, groupRows } from './prepare';
import { hiddenSettings, portableSettings, publishedSettings } from './publish';
import { type RunSet, type ScalingLine, setLabel } from './sets';
import { tableSections } from './table-rows';
import { tieMarginOf } from './tails';

/** The knobs that change what a number means; the rest sit behind "all settings". */
const KEY_SETTINGS = [
  'rate',
  'iterations',
  'warmup',
  'forks',
  'rounds',
  'confidence',
  'tieMargin',
  'families',
];

export interface RunContext {
  set: RunSet;
  /** The set's scaling line, when it spans more than one size. */
  line?: ScalingLine;
  calibrations: readonly Calibration[];
  downloads: readonly string[];
  previous?: Pick<Scorecard, 'runId' | 'createdAt'>;
  next?: Pick<Scorecard, 'runId' | 'createdAt'>;
}

const integer = new Intl.NumberFormat('en-US');

function settingText(value: string | number | boolean | string[]): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The cost curve's table, formatted: each side's values across sizes and how much they grew. */
export function costCurveModel(card: Pick<Scorecard, 'costCurve'>): CostCurveModel | undefined {
  const curve = card.costCurve;
  if (!curve || curve.rows.length === 0) return undefined;
  const text = (values: readonly (number | null)[]) => {
    const grew = growth(values);
    const series = values.map((v) => (v === null ? 'n/a' : formatMs(v))).join(' → ');
    return grew === undefined ? series : `${series} (${grew.toFixed(2)}x)`;
  };
  return {
    sizes: curve.docs.map((d) => integer.format(d)).join(', '),
    runIds: curve.runIds,
    loads: differingLoads(curve),
    rows: curve.rows.map((row) => ({
      id: row.id,
      candidateP50: text(row.candidateP50),
      baselineP50: text(row.baselineP50),
      candidateCpu: text(row.candidateCpuMs),
      baselineCpu: text(row.baselineCpuMs),
    })),
  };
}

/** The gate's exit statuses: 1 any LOSE, 2 the run failed, 3 coverage fell, 4 a row regressed against the base build. */
function gateFails(card: Scorecard): boolean {
  return (
    countVerdicts(card.rows).LOSE > 0 ||
    card.status === 'failed' ||
    card.coverage?.fell === true ||
    card.exitCode === 4
  );
}

export function runModel(card: Scorecard, context: RunContext): RunModel {
  const { manifest } = card;
  const settings = publishedSettings(manifest.settings);
  const rows = tableSections(groupRows(card.rows), manifest).flatMap((section) => section.rows);
  const all = Object.entries(settings).map(([key, value]) => [key, settingText(value)] as [string, string]);
  const reproduction = reproduceCommand({ ...manifest, settings: portableSettings(manifest.settings) });
  const fit = calibrationFor(context.calibrations, card);
  const model: RunModel = {
    runId: card.runId,
    createdAt: card.createdAt,
    status: card.status,
    durationMs: card.durationMs,
    candidateProduct: productName(manifest.candidate),
    candidate: engineName(manifest.candidate),
    baseline: engineName(manifest.baseline),
    gitRevision: manifest.gitRevision,
    corpus: { ...manifest.corpus },
    machine: { ...manifest.machine },
    node: manifest.node,
    set: {
      slug: context.set.slug,
      name: context.set.name,
      label: setLabel(context.set),
      options: context.set.options,
      runs: context.set.runs.length,
    },
    gateFails: gateFails(card),
    counts: countVerdicts(card.rows),
    headline: headline(card),
    rows,
    tieMargin: tieMarginOf(manifest.settings),
    conformance: runConformance(card),
    settings: all,
    keySettings: all.filter(([key]) => KEY_SETTINGS.includes(key)).map(([key, value]) => `${key} ${value}`),
    reproduce: {
      lines: reproduction.lines,
      caveats: reproduction.caveats,
      fixedSettings: reproduction.fixedSettings,
      hidden: hiddenSettings(manifest.settings),
    },
    downloads: [...context.downloads],
  };
  const nodes = manifest.baseline.topology?.nodes;
  if (nodes !== undefined && nodes > 1) model.baselineNodes = nodes;
  if (card.failure) model.failure = card.failure;
  if (context.line && context.line.sets.length > 1)
    model.line = { slug: context.line.slug, name: context.line.name };
  const levels = levelsInWords(rows);
  if (levels) model.levels = levels;
  if (fit) {
    model.calibration = {
      file: fit.calibration.file,
      scale: calibrationScale(fit.calibration),
      stale: fit.stale,
    };
  }
  const restSuite = runRestSuite(card);
  if (restSuite) model.restSuite = restSuite;
  if (card.floor) model.floor = card.floor;
  if (manifest.shards && manifest.shards.length > 0)
    model.shards = manifest.shards.map((s) => ({
      index: s.index,
      runId: s.runId,
      machine: `${s.machine.cpuModel}, ${s.machine.cores} cores`,
      rows: s.rows,
      durationMs: s.durationMs,
    }));
  if (card.coverage) model.coverage = card.coverage;
  const curve = costCurveModel(card);
  if (curve) model.costCurve = curve;
  if (context.previous)
    model.previous = { runId: context.previous.runId, createdAt: context.previous.createdAt };
  if (context.next) model.next = { runId: context.next.runId, createdAt: context.next.createdAt };
  return model;
}
