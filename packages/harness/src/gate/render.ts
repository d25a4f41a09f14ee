import type { Scorecard, Verdict } from '../scorecard/schema.js';
import { countSections } from './renderCounts.js';
import type { GateResult } from './result.js';
import type { Waiver } from './waivers.js';

/** Markdown for the job summary and the PR comment: pure functions of the gate result. */

type Result = Omit<GateResult, 'summaryMarkdown'>;

const ICON: Record<number, string> = { 0: '✅', 1: '❌', 2: '💥', 3: '⚠️', 4: '🐢' };
const LABEL: Record<number, string> = {
  0: 'passed',
  1: 'failed: LOSE',
  2: 'failed: the run failed',
  3: 'failed: coverage fell',
  4: 'failed: regression against main',
};

/** Table cells come from scorecards a PR can influence: keep them on one line and inside their cell. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function title(result: Result): string {
  return `## ${ICON[result.exitCode]} everycell gate ${LABEL[result.exitCode]} (exit ${result.exitCode})`;
}

function countsTable(card: Scorecard, previous: Scorecard | undefined): string[] {
  const verdicts: Verdict[] = ['WIN', 'LOSE', 'TIE', 'N/A'];
  const value = (v: Verdict) => {
    const now = card.counts[v] ?? 0;
    if (!previous) return String(now);
    const delta = now - (previous.counts[v] ?? 0);
    return delta === 0 ? String(now) : `${now} (${delta > 0 ? '+' : ''}${delta})`;
  };
  return [
    `| ${verdicts.join(' | ')} |`,
    `|${verdicts.map(() => '---:').join('|')}|`,
    `| ${verdicts.map(value).join(' | ')} |`,
  ];
}

function context(card: Scorecard, previous: Scorecard | undefined): string {
  const m = card.manifest;
  const against = previous ? `compared with ${code(previous.runId)}` : 'no previous run to compare with';
  return `Run ${code(card.runId)}: ${cell(m.candidate.product)} vs ${cell(m.baseline.product)}, corpus ${code(m.corpus.name)} with ${m.corpus.docs.toLocaleString('en-US')} docs; ${against}.`;
}

function waiverText(w: Waiver): string {
  return `${cell(w.reason)} (${cell(w.who)}, expires ${w.expires})`;
}

function failingSection(result: Result): string[] {
  if (result.failingRows.length === 0) return [];
  return [
    '### Failing rows',
    '',
    '| row | title | reason |',
    '|---|---|---|',
    ...result.failingRows.map((r) => {
      const expired = r.expiredWaiver
        ? `<br>**waiver expired** on ${r.expiredWaiver.expires}: ${waiverText(r.expiredWaiver)}`
        : '';
      return `| ${code(r.id)} | ${cell(r.title)} | LOSE: ${cell(r.reason)}${expired} |`;
    }),
    '',
  ];
}

function waivedSection(result: Result): string[] {
  if (result.waivedRows.length === 0) return [];
  return [
    '### Waived rows',
    '',
    '| row | waiver reason | who | expires | measured |',
    '|---|---|---|---|---|',
    ...result.waivedRows.map(
      (r) =>
        `| ${code(r.id)} | ${cell(r.waiver.reason)} | ${cell(r.waiver.who)} | ${r.waiver.expires} | ${cell(r.reason)} |`,
    ),
    '',
  ];
}

function changedSection(result: Result, previous: Scorecard | undefined): string[] {
  if (!previous) return [];
  if (result.changedRows.length === 0) return [`No verdict changed since ${code(previous.runId)}.`, ''];
  return [
    `### Changed rows since ${code(previous.runId)}`,
    '',
    '| row | before | now | reason |',
    '|---|---|---|---|',
    ...result.changedRows.map(
      (r) => `| ${code(r.id)}${r.flip ? ' **flip**' : ''} | ${r.from} | ${r.to} | ${cell(r.reason)} |`,
    ),
    '',
  ];
}

/**
 * A row id linked to its page on the published site when SITE_URL is set (the workflow sets
 * it), else the id in code.
 */
export function rowLink(id: string): string {
  const site = process.env.SITE_URL?.replace(/\/$/, '');
  return site ? `[${code(id)}](${site}/rows/${encodeURIComponent(id)}/)` : code(id);
}

const factor = (x: number) => `${x.toFixed(3)}x`;

/**
 * Rows whose candidate moved against the merge-base build, largest change first (CodSpeed-style):
 * a regression past the fail margin, or all rows' median, fails the gate unless a regression
 * waiver covers it; smaller regressions and improvements are news.
 */
function baseSections(card: Scorecard, result: Result): string[] {
  const base = card.manifest.base;
  if (!base) return [];
  const at = code(base.revision.slice(0, 7));
  const out: string[] = [];
  const o = result.overall;
  if (o)
    out.push(
      `**All read rows together against ${at}: ${o.verdict}**${o.waiver ? ` (waived until ${o.waiver.expires})` : ''}: ${cell(o.reason)}.`,
      '',
    );
  if (result.regressions.length === 0 && result.improvements.length === 0)
    return [...out, `No row moved against the merge-base build ${at} beyond the margin.`, ''];
  if (result.regressions.length > 0)
    out.push(
      `### Regressions against the merge-base build ${at}`,
      '',
      'A row past the fail margin fails the gate alone (**fails**); smaller ones are listed and count through the median of all rows above.',
      '',
      '| row | change (> 1: faster) | reason |',
      '|---|---:|---|',
      ...result.regressions.map(
        (r) =>
          `| ${rowLink(r.id)}${r.blocking ? ' **fails**' : ''}${r.waiver ? ` (waived until ${r.waiver.expires})` : ''} | ${factor(r.size)} | ${cell(r.reason)} |`,
      ),
      '',
    );
  if (result.improvements.length > 0)
    out.push(
      `### Improvements against the merge-base build ${at}`,
      '',
      '| row | change (> 1: faster) | reason |',
      '|---|---:|---|',
      ...result.improvements.map((r) => `| ${rowLink(r.id)} | ${factor(r.size)} | ${cell(r.reason)} |`),
      '',
    );
  return out;
}

function coverageSection(result: Result): string[] {
  const c = result.coverage;
  if (!c.compared) return [`Coverage: ${cell(c.note ?? 'not compared')}.`, ''];
  const lines = [`Coverage: N/A rows ${c.naBefore} before, ${c.naNow} now.`];
  if (c.missingRows.length > 0)
    lines.push(`Rows missing since the previous run: ${c.missingRows.map(code).join(', ')}.`);
  if (c.newlyNA.length > 0) lines.push(`Rows that became N/A: ${c.newlyNA.map(code).join(', ')}.`);
  return [lines.join(' '), ''];
}

const UNUSED_BECAUSE: Record<Waiver['kind'], string> = {
  lose: 'LOSE',
  regression: 'regress',
  count: 'count more instructions past the threshold',
};

function waiverHousekeeping(result: Result): string[] {
  const lines: string[] = [];
  for (const w of result.expiredWaivers)
    lines.push(`- expired waiver for ${code(w.row)}: ${waiverText(w)}: renew it with a reason or delete it`);
  for (const w of result.unusedWaivers)
    lines.push(
      `- unused ${w.kind} waiver for ${code(w.row)} (the row did not ${UNUSED_BECAUSE[w.kind]}): ${waiverText(w)}`,
    );
  return lines.length === 0 ? [] : ['### Waivers to tidy (scorecards/waivers.json)', '', ...lines, ''];
}

/** The job summary: everything a reviewer needs to see why the gate decided what it did. */
export function renderSummary(card: Scorecard, previous: Scorecard | undefined, result: Result): string {
  return [
    title(result),
    '',
    `**${cell(result.headline)}**`,
    '',
    context(card, previous),
    '',
    ...countsTable(card, previous),
    '',
    ...(result.runFailure ? [`Run failure: ${cell(result.runFailure)}`, ''] : []),
    ...failingSection(result),
    ...waivedSection(result),
    ...baseSections(card, result),
    ...countSections(result.counts, rowLink, 'summary'),
    ...changedSection(result, previous),
    ...coverageSection(result),
    ...waiverHousekeeping(result),
  ].join('\n');
}

/**
 * The PR comment: headline, counts, what changed, where the full run is. Shorter than the
 * summary; the sticky-comment workflow adds its own hidden marker.
 */
export function renderComment(
  card: Scorecard,
  previous: Scorecard | undefined,
  result: Result,
  artifactUrl: string | undefined,
): string {
  const link = artifactUrl
    ? `[Run folder and SCORECARD.md (artifact)](${artifactUrl})`
    : 'Run folder and SCORECARD.md: see the artifact of the gate run.';
  return [
    title(result),
    '',
    `**${cell(result.headline)}**`,
    '',
    context(card, previous),
    '',
    ...countsTable(card, previous),
    '',
    ...failingSection(result),
    ...(result.waivedRows.length > 0
      ? [
          `Waived LOSE rows: ${result.waivedRows.map((r) => `${code(r.id)} until ${r.waiver.expires}`).join(', ')}.`,
          '',
        ]
      : []),
    ...baseSections(card, result),
    ...countSections(result.counts, rowLink, 'comment'),
    ...changedSection(result, previous),
    ...(result.coverage.compared ? coverageSection(result) : []),
    link,
    '',
  ].join('\n');
}

/** When no scorecard could be read, the comment still says the gate failed and why. */
export function renderFailureComment(message: string, artifactUrl: string | undefined): string {
  return [
    `## ${ICON[2]} everycell gate ${LABEL[2]} (exit 2)`,
    '',
    `**No scorecard to judge**: ${cell(message)}`,
    '',
    artifactUrl ? `[Run folder (artifact)](${artifactUrl})` : 'See the gate run for its log.',
    '',
  ].join('\n');
}
