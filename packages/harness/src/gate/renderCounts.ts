import type { CountResult, CountRow } from './counts.js';

/** Markdown of the count check for the job summary and the PR comment: a pure function of its result. */

/** Rows listed in the comment; the summary lists every row that moved. */
const COMMENT_ROWS = 15;

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const perRequest = (x: number | undefined) => (x === undefined ? '-' : Math.round(x).toLocaleString('en-US'));
const percent = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(2)}%`;

function status(r: CountRow): string {
  if (r.verdict === 'REGRESSED') {
    if (r.failing) return r.waiver ? `**fails** (waiver expired ${r.waiver.expires})` : '**fails**';
    return `waived until ${r.waiver?.expires}: ${cell(r.waiver?.reason ?? '')}`;
  }
  if (r.verdict === 'IMPROVED') return 'improved';
  return '';
}

function headline(c: CountResult): string {
  const t = `${(100 * c.comparison.threshold).toFixed(0)}%`;
  const failing = c.regressions.filter((r) => r.failing).length;
  const compared = c.comparison.rows.length - c.notCompared.length;
  const parts: string[] = [];
  if (c.regressions.length > 0)
    parts.push(
      `**${c.regressions.length} row${c.regressions.length === 1 ? '' : 's'} ${t} or more instructions per request${failing > 0 ? ` (${failing} failing the gate)` : ', all waived'}**`,
    );
  if (c.improvements.length > 0) parts.push(`${c.improvements.length} improved by ${t} or more`);
  if (parts.length === 0)
    parts.push(
      c.moved.length === 0
        ? `no row's count changed (${compared} rows)`
        : `no row moved ${t} or more (${compared} rows; largest change ${percent(c.moved[0]?.change ?? 0)})`,
    );
  return parts.join('; ');
}

/**
 * The count check: what it compared, then the rows whose count changed, largest change first,
 * each linked to its row page. Nothing when the run has no count check.
 */
export function countSections(
  counts: CountResult | undefined,
  rowLink: (id: string) => string,
  where: 'summary' | 'comment',
): string[] {
  if (!counts) return [];
  const c = counts.comparison;
  const at = code(c.baseRevision.slice(0, 7));
  const title = `### Instructions per request against the merge-base build ${at}`;
  if (c.note) return [title, '', `Not compared: ${cell(c.note)}.`, ''];
  const shown = where === 'comment' ? counts.moved.slice(0, COMMENT_ROWS) : counts.moved;
  const rest = counts.moved.length - shown.length;
  const seconds = (c.timings.total ?? Object.values(c.timings).reduce((a, b) => a + b, 0)) / 1000;
  const out = [
    title,
    '',
    `${headline(counts)}. Counted under callgrind on ${c.corpus.docs.toLocaleString('en-US')} ${code(c.corpus.name)} documents, ${c.sizes.timed} requests per row (the same on both builds); two runs of one build count the same to the instruction, so every change here is the build's (${seconds.toFixed(0)} s).`,
    '',
  ];
  if (shown.length > 0)
    out.push(
      '| row | merge base | this build | change | |',
      '|---|---:|---:|---:|---|',
      ...shown.map(
        (r) =>
          `| ${rowLink(r.row)} | ${perRequest(r.base)} | ${perRequest(r.head)} | ${percent(r.change ?? 0)} | ${status(r)} |`,
      ),
      ...(rest > 0 ? ['', `${rest} more row${rest === 1 ? '' : 's'} moved less (see the job summary).`] : []),
      '',
    );
  if (counts.notCompared.length > 0)
    out.push(
      `Not compared: ${counts.notCompared.map((r) => `${code(r.row)} (${cell(r.reason)})`).join(', ')}.`,
      '',
    );
  return out;
}
