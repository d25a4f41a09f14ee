import { overviewGrid } from '@/lib/overview-grid';
import { rowHref } from '@/lib/routes';
import type { TableRow } from '@/lib/table-rows';
import { verdictClass } from './verdict-badge';

/**
 * Every row of a run on one screen (ClickBench's grid): a cell per row, its colour the verdict and
 * its shade how far the ratio is from 1, its glyph and ratio written in it, its link the row page.
 */
export function OverviewGrid({ rows, set }: { rows: readonly TableRow[]; set: string }) {
  const groups = overviewGrid(rows);
  return (
    <section className="overview" aria-labelledby="overview-heading">
      <h2 id="overview-heading" className="overview-title">
        Every row at a glance <span className="muted">· {rows.length} rows, darker = further from 1×</span>
      </h2>
      <ul className="overview-grid" aria-describedby="overview-key">
        {groups.map((group) => (
          <li key={group.group} className="overview-group" data-group={group.group}>
            <span className="overview-label">{group.label}</span>
            {group.cells.map((cell) => (
              <a
                key={cell.id}
                href={rowHref(set, cell.id)}
                className={`overview-cell cell-${verdictClass(cell.verdict)}`}
                style={{ background: cell.bg, color: cell.fg }}
                title={cell.label}
                data-row-id={cell.id}
                data-verdict={cell.verdict}
              >
                {/* The glyph is drawn by the stylesheet; the number is shown, the label is read. */}
                <span aria-hidden="true">{cell.text}</span>
                <span className="visually-hidden">{cell.label}</span>
              </a>
            ))}
          </li>
        ))}
      </ul>
      <p id="overview-key" className="overview-key">
        <span className="key key-win">▲ WIN</span> <span className="key key-lose">▼ LOSE</span>{' '}
        <span className="key key-tie">= TIE</span> <span className="key key-na">? N/A</span> · the number is
        the ratio (above 1 the candidate is better); each cell opens its row.
      </p>
    </section>
  );
}
