import type { RowResult } from '@/lib/definitions';
import { groupRows } from '@/lib/prepare';
import { rowHref } from '@/lib/routes';
import { VerdictBadge } from './verdict-badge';

/** Every row's trend page, grouped; links, so choosing a row works without JavaScript. */
export function RowSelector({ rows, current }: { rows: RowResult[]; current: string }) {
  return (
    <nav className="row-selector" aria-label="Rows">
      <h2>Rows</h2>
      {groupRows(rows).map((section) => (
        <div key={section.group} className="selector-group">
          <h3>{section.label}</h3>
          <ul>
            {section.rows.map((row) => (
              <li key={row.id}>
                <a href={rowHref(row.id)} aria-current={row.id === current ? 'page' : undefined}>
                  <span className="selector-title">{row.title}</span>
                  <VerdictBadge verdict={row.verdict} reason={row.reason} />
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
