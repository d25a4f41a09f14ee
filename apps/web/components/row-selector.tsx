import type { RowResult } from '@/lib/definitions';
import { groupRows } from '@/lib/prepare';
import { rowHref } from '@/lib/routes';
import { VerdictBadge } from './verdict-badge';

/** Every row page of the set, grouped; after the row's content, as links that work without JavaScript. */
export function RowSelector({ rows, current, set }: { rows: RowResult[]; current: string; set: string }) {
  return (
    <nav className="row-selector" aria-label="Rows">
      <h2>Other rows of this set</h2>
      {groupRows(rows).map((section) => (
        <div key={section.group} className="selector-group">
          <h3>{section.label}</h3>
          <ul>
            {section.rows.map((row) => (
              <li key={row.id}>
                <a href={rowHref(set, row.id)} aria-current={row.id === current ? 'page' : undefined}>
                  <span className="selector-title">{row.title}</span>
                  <VerdictBadge verdict={row.verdict} />
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
