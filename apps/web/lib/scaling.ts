/**
 * A scaling line side by side: the newest run of each size of one set of options, row by row,
 * so a reader sees how each verdict and ratio moves from 100k to 1M to 10M documents. Pure.
 */
import type { RowGroup, Scorecard, Verdict } from './definitions';
import { formatRatio } from './format';
import { headline } from './headline';
import { compareRuns, countVerdicts, groupBy, scoredValue } from './prepare';
import { type ScalingLine, sizeShort } from './sets';

export interface LineColumn {
  slug: string;
  size: string;
  docs: number;
  runId: string;
  createdAt: string;
  gitRevision: string;
  geomean?: number;
  counts: Record<Verdict, number>;
}

export interface LineCell {
  verdict: Verdict;
  ratioText: string;
  /** "0.61 / 1.42 ms": each engine's scored number, candidate first. */
  sides?: string;
}

export interface LineRow {
  id: string;
  title: string;
  group: RowGroup;
  /** One per column; undefined where that size's run did not measure the row. */
  cells: (LineCell | undefined)[];
}

export interface LineTable {
  columns: LineColumn[];
  sections: { group: RowGroup; label: string; rows: LineRow[] }[];
}

const number = (value: number | undefined) =>
  value === undefined ? '—' : value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toPrecision(3);

export function lineTable(line: ScalingLine): LineTable {
  const latest = line.sets.map((set) => ({ set, card: [...set.runs].sort(compareRuns).at(-1) as Scorecard }));
  const columns = latest.map(({ set, card }): LineColumn => {
    const column: LineColumn = {
      slug: set.slug,
      size: sizeShort(set.set.docs),
      docs: set.set.docs,
      runId: card.runId,
      createdAt: card.createdAt,
      gitRevision: card.manifest.gitRevision,
      counts: countVerdicts(card.rows),
    };
    const mean = headline(card).geomean;
    if (mean !== undefined) column.geomean = mean;
    return column;
  });
  const seen = new Map<string, { title: string; group: RowGroup }>();
  for (const { card } of latest) for (const row of card.rows) if (!seen.has(row.id)) seen.set(row.id, row);
  const rows = [...seen].map(
    ([id, identity]): LineRow => ({
      id,
      title: identity.title,
      group: identity.group,
      cells: latest.map(({ card }) => {
        const row = card.rows.find((candidate) => candidate.id === id);
        if (!row) return undefined;
        const c = scoredValue(row, 'candidate');
        const b = scoredValue(row, 'baseline');
        const cell: LineCell = { verdict: row.verdict, ratioText: formatRatio(row.ratio) };
        if (c !== undefined || b !== undefined)
          cell.sides = `${number(c)} / ${number(b)}${row.unit === 'ms' ? ' ms' : ''}`;
        return cell;
      }),
    }),
  );
  return { columns, sections: groupBy(rows) };
}
