import { BENCH_FLAGS, DEFAULT_MIXED_WRITE_RATE, DEFAULT_SWEEP_P99_MS } from '../cli/benchFlags.js';
import { flagsForSettings, shellWord } from '../cli/flags.js';
import { DEFAULT_SETTINGS } from '../model/settings.js';
import { topologyWords } from '../scorecard/comparable.js';
import { type CardFigures, cardFigures, type PairFigure } from '../scorecard/headline.js';
import type { Scorecard } from '../scorecard/schema.js';

/**
 * The README's results, written from the committed cards (`npm run readme`), never by hand: for
 * each scale the newest complete card of the default options, one table of its headline figures
 * naming the card; the newest card of each other corpus or baseline shape in one table; and one
 * row of a card as SCORECARD.md prints it, for "how to read a card". Pure: the CLI reads the files.
 */

/** A committed card and its folder relative to the repository (`scorecards/<run-id>`). */
export interface CommittedCard {
  card: Scorecard;
  folder: string;
  /** Its SCORECARD.md, for the example row (absent: no example from this card). */
  markdown?: string;
}

export interface Scale {
  docs: number;
  /** 100k only: the default matrix exactly (`npm run bench`), no other option. */
  defaultMatrixOnly: boolean;
}

export const SCALES: readonly Scale[] = [
  { docs: 100_000, defaultMatrixOnly: true },
  { docs: 1_000_000, defaultMatrixOnly: false },
  { docs: 10_000_000, defaultMatrixOnly: false },
];

/** The read row shown as the example of a card's table. */
export const EXAMPLE_ROW = 'query.term';

export const BLOCKS = {
  results: {
    start:
      '<!-- generated:results (npm run readme, from the committed cards; edits here are overwritten) -->',
    end: '<!-- /generated:results -->',
  },
  example: {
    start:
      '<!-- generated:card-row (npm run readme, from the newest 100k card; edits here are overwritten) -->',
    end: '<!-- /generated:card-row -->',
  },
} as const;

/** The settings a run has when no flag is given (what the manifest records for `npm run bench`). */
const RECORDED_DEFAULTS: Record<string, unknown> = {
  ...DEFAULT_SETTINGS,
  mixedWriteRate: DEFAULT_MIXED_WRITE_RATE,
  sweep: true,
  sweepP99Ms: DEFAULT_SWEEP_P99_MS,
};

/** The flags of a card that differ from the defaults, `--docs` left out (the scale says it). */
export function optionsBeyondDefault(card: Scorecard): string[] {
  const settings = card.manifest.settings as Record<string, unknown>;
  return BENCH_FLAGS.filter((f) => f.name !== 'docs').flatMap((flag) => {
    const mine = flagsForSettings([flag], settings);
    const plain = flagsForSettings([flag], RECORDED_DEFAULTS);
    return mine.join(' ') === plain.join(' ') ? [] : mine;
  });
}

/**
 * The default comparable options: the default corpus, every row, seed and design knobs as flags
 * set them, a single-node OpenSearch and a candidate the harness started, no A/A and no
 * merge-base build. Other options (kNN, more clients, a lighter load) are named in the table.
 */
export function hasDefaultOptions(card: Scorecard): boolean {
  const m = card.manifest;
  const s = m.settings;
  return (
    card.status === 'complete' &&
    (s.corpus ?? DEFAULT_SETTINGS.corpus) === DEFAULT_SETTINGS.corpus &&
    String(s.families ?? '*') === '*' &&
    (s.seed ?? DEFAULT_SETTINGS.seed) === DEFAULT_SETTINGS.seed &&
    (s.aa ?? false) === false &&
    Number(s.calibrationExtraCpu ?? 0) === 0 &&
    topologyWords(m.baseline.topology) === '' &&
    m.candidate.startedByHarness &&
    m.baseline.startedByHarness &&
    m.base === undefined
  );
}

const newestFirst = (a: CommittedCard, b: CommittedCard) => b.card.createdAt.localeCompare(a.card.createdAt);

/** The newest complete whole-run card of each scale's default options (undefined: none committed). */
export function pickScaleCards(cards: readonly CommittedCard[]): (CommittedCard | undefined)[] {
  const sorted = [...cards].sort(newestFirst);
  return SCALES.map((scale) =>
    sorted.find(
      (c) =>
        c.card.manifest.corpus.docs === scale.docs &&
        // A card merged from shards (npm run merge-cards) is not what the command ran on one machine.
        c.card.manifest.shards === undefined &&
        hasDefaultOptions(c.card) &&
        (!scale.defaultMatrixOnly || optionsBeyondDefault(c.card).length === 0),
    ),
  );
}

/** Another corpus or baseline shape (every row, engines started by the harness, no A/A). */
function otherSet(card: Scorecard): string | undefined {
  const m = card.manifest;
  const s = m.settings;
  if (card.status !== 'complete' || String(s.families ?? '*') !== '*' || (s.aa ?? false) !== false) return;
  if (!m.candidate.startedByHarness || !m.baseline.startedByHarness || m.base) return;
  const cluster = topologyWords(m.baseline.topology);
  if ((s.corpus ?? DEFAULT_SETTINGS.corpus) === DEFAULT_SETTINGS.corpus && cluster === '') return;
  return `${m.corpus.name} | ${m.corpus.docs} | ${m.baseline.product}${cluster}`;
}

/** The newest card of each other set, ordered by corpus then size. */
export function pickOtherSets(cards: readonly CommittedCard[]): CommittedCard[] {
  const newest = new Map<string, CommittedCard>();
  for (const c of [...cards].sort(newestFirst)) {
    const key = otherSet(c.card);
    if (key !== undefined && !newest.has(key)) newest.set(key, c);
  }
  return [...newest.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, c]) => c);
}

// Numbers as SCORECARD.md prints them (scorecard/markdown.ts), so a reader finds the same figures there.
const num = (x: number, digits = 2) =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
const ratio3 = (r: number | undefined) => (r === undefined ? 'no ratio' : `${num(r, 3)}x`);
const mib = (bytes: number) => `${num(bytes / 1048576, 1)} MiB`;

export function docsWords(docs: number): string {
  if (docs >= 1_000_000 && docs % 1_000_000 === 0) return `${docs / 1_000_000}m`;
  if (docs >= 1000 && docs % 1000 === 0) return `${docs / 1000}k`;
  return String(docs);
}

export function durationWords(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** "95,051 vs 32,468 docs/s (2.928x)": both engines' values and the card's ratio. */
function pairCell(p: PairFigure, unit: (x: number) => string): string {
  if (p.candidate === undefined || p.baseline === undefined)
    return `${p.verdict} (${p.id} not measured on both)`;
  return `${unit(p.candidate)} vs ${unit(p.baseline)} (${ratio3(p.ratio)}, ${p.verdict})`;
}

function figureRows(f: CardFigures, settings: Scorecard['manifest']['settings']): string[][] {
  const { WIN, LOSE, TIE } = f.counts;
  const rows: string[][] = [['verdicts', `**WIN ${WIN}, LOSE ${LOSE}, TIE ${TIE}, N/A ${f.counts['N/A']}**`]];
  if (f.read)
    rows.push([
      'read rows: p50 ratio, geometric mean',
      `**${num(f.read.geomean)}x** over ${f.read.rows} rows; ${f.read.atLeastTwice} at 2x or more`,
    ]);
  if (f.cpu)
    rows.push([
      'engine CPU per request, geometric mean',
      `${num(f.cpu.geomean)}x over ${f.cpu.rows} rows; lowest ${num(f.cpu.lowest.ratio)}x (\`${f.cpu.lowest.id}\`)`,
    ]);
  for (const i of f.ingest)
    rows.push([
      `ingest, ${i.clients} client${i.clients === 1 ? '' : 's'}`,
      pairCell(i, (x) => `${num(x, 0)} docs/s`),
    ]);
  if (f.resolution) {
    const r = f.resolution;
    rows.push([
      'read rows the intervals resolve',
      `${r.resolved} of ${r.rows} (${r.belowResolution} forced to a TIE below the floor's resolution; ${r.onServiceTime} scored on service time, the harness behind its schedule)`,
    ]);
  }
  if (f.floor)
    rows.push([
      "the harness's floor (its client against a null server, same run)",
      `p50 ${num(f.floor.p50, 3)} ms, p99 ${num(f.floor.p99, 3)} ms (send lag p99 ${num(f.floor.sendLagP99, 3)} ms)`,
    ]);
  if (f.disk) rows.push(['disk after a force-merge', pairCell(f.disk, mib)]);
  if (f.memory) rows.push(['resident memory after the reads', pairCell(f.memory, mib)]);
  const ratios = (ps: PairFigure[], prefix: string) =>
    ps.map((p) => `${p.id.slice(prefix.length)} ${ratio3(p.ratio)} ${p.verdict}`).join(', ');
  if (f.throughput.length > 0)
    rows.push([
      `highest rate with p99 <= ${settings.sweepP99Ms ?? DEFAULT_SWEEP_P99_MS} ms (\`throughput.*\`)`,
      ratios(f.throughput, 'throughput.'),
    ]);
  if (f.mixed.length > 0)
    rows.push([
      `p99 under ${num(Number(settings.mixedWriteRate ?? DEFAULT_MIXED_WRITE_RATE), 0)} writes/s (\`mixed.*\`)`,
      ratios(f.mixed, 'mixed.'),
    ]);
  if (f.knnLatency) rows.push(['kNN p50', pairCell(f.knnLatency, (x) => `${num(x)} ms`)]);
  if (f.knnRecall) rows.push(['kNN recall@10', pairCell(f.knnRecall, (x) => x.toFixed(4))]);
  if (f.conformance)
    rows.push([
      'conformance: differential cases',
      `${num(f.conformance.candidatePass, 0)} of the ${num(f.conformance.baselinePass, 0)} OpenSearch passes`,
    ]);
  if (f.restSuite)
    rows.push([
      "Elasticsearch's REST API tests",
      `${num(f.restSuite.candidatePass, 0)} of the ${num(f.restSuite.baselinePass, 0)} OpenSearch passes`,
    ]);
  return rows;
}

/** "`scorecards/X` (revision abc1234, 2026-11-27, 17 min 38 s)". */
function cardLine(c: CommittedCard): string {
  const m = c.card.manifest;
  const dirty = m.settings.gitDirty === true ? ', uncommitted changes' : '';
  return `[\`${c.folder}\`](${c.folder}/SCORECARD.md) (revision \`${m.gitRevision.slice(0, 7)}\`${dirty}, ${c.card.createdAt.slice(0, 10)}, ${durationWords(c.card.durationMs)})`;
}

function scaleTable(scale: Scale, c: CommittedCard | undefined): string[] {
  const title = `**${num(scale.docs, 0)} documents**`;
  if (!c) return [`${title}: no complete card of the default options is committed.`, ''];
  const m = c.card.manifest;
  const extra = optionsBeyondDefault(c.card);
  const docsFlag = scale.docs === DEFAULT_SETTINGS.docs ? [] : ['--docs', docsWords(scale.docs)];
  const flags = [...docsFlag, ...extra];
  const command = `npm run bench${flags.length > 0 ? ` -- ${flags.map(shellWord).join(' ')}` : ''}`;
  return [
    `${title} (\`${command}\`): ${cardLine(c)}, ${m.candidate.product} against ${m.baseline.product} on ${m.machine.cores} cores.`,
    '',
    '| measure | candidate vs baseline (ratio, verdict) |',
    '|---|---|',
    ...figureRows(cardFigures(c.card), m.settings).map(([k, v]) => `| ${k} | ${v} |`),
    '',
  ];
}

function otherSetsTable(cards: readonly CommittedCard[]): string[] {
  if (cards.length === 0) return [];
  return [
    'The newest card of each other corpus and baseline shape (`--corpus`, `--baseline-nodes`):',
    '',
    '| corpus | docs | baseline | WIN / LOSE / TIE / N/A | read rows: p50 geomean | card |',
    '|---|---|---|---|---|---|',
    ...cards.map((c) => {
      const m = c.card.manifest;
      const f = cardFigures(c.card);
      const { WIN, LOSE, TIE } = f.counts;
      const read = f.read ? `${num(f.read.geomean)}x (${f.read.rows} rows)` : '-';
      return `| \`${m.corpus.name}\` | ${num(m.corpus.docs, 0)} | ${m.baseline.product}${topologyWords(m.baseline.topology)} | ${WIN} / ${LOSE} / ${TIE} / ${f.counts['N/A']} | ${read} | ${cardLine(c)} |`;
    }),
    '',
  ];
}

/** The generated results: one table per scale, then the other sets. */
export function resultsBlock(cards: readonly CommittedCard[]): string {
  const picked = pickScaleCards(cards);
  return [
    "Each table is the newest complete committed card of its size with the default options (the default corpus and every row, against a single-node OpenSearch the harness started; at 100k the default matrix exactly, at other sizes the options beyond the defaults are in the command). Ratios are the card's: above 1 the candidate is better, whatever the unit.",
    '',
    ...SCALES.flatMap((scale, k) => scaleTable(scale, picked[k])),
    ...otherSetsTable(pickOtherSets(cards)),
  ].join('\n');
}

/** The header of SCORECARD.md's results table and one row of it, as the newest 100k card prints them. */
export function exampleBlock(cards: readonly CommittedCard[]): string {
  const c = pickScaleCards(cards)[0];
  const lines = c?.markdown?.split('\n') ?? [];
  const header = lines.findIndex((l) => l.startsWith('| Row |'));
  const row = lines.find((l) => l.startsWith(`| \`${EXAMPLE_ROW}\` |`));
  if (!c || header < 0 || !row) return `No committed 100k card prints a \`${EXAMPLE_ROW}\` row.`;
  return [
    `From [\`${c.folder}/SCORECARD.md\`](${c.folder}/SCORECARD.md):`,
    '',
    lines[header],
    lines[header + 1],
    row,
  ].join('\n');
}

/** The text between a block's markers replaced; an error when the markers are missing. */
export function replaceBlock(text: string, markers: { start: string; end: string }, body: string): string {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`README.md has no ${markers.start} ... ${markers.end} block`);
  return `${text.slice(0, start + markers.start.length)}\n${body}\n${text.slice(end)}`;
}

/** README.md with both generated blocks written from the committed cards. */
export function renderReadme(readme: string, cards: readonly CommittedCard[]): string {
  return replaceBlock(
    replaceBlock(readme, BLOCKS.results, resultsBlock(cards)),
    BLOCKS.example,
    exampleBlock(cards),
  );
}
