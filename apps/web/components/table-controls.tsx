import type { RowGroup } from '@/lib/definitions';
import { VERDICT_ORDER } from '@/lib/prepare';
import { DEFAULT_VIEW, SORT_LABEL, SORTS } from '@/lib/table-view';

/**
 * The filters and sort of the run table, written by the server and hidden until
 * lib/table-enhance.ts wires them (the table itself is plain HTML that works without JavaScript).
 * No React state: static pages wire it with a small script of their own instead of hydrating.
 */
export function TableControls({
  tableId,
  groups,
  total,
}: {
  tableId: string;
  groups: { group: RowGroup; label: string }[];
  total: number;
}) {
  const id = `${tableId}-controls`;
  return (
    <form className="filters" aria-label="Filter and sort rows" data-table-controls={tableId} hidden>
      <div className="filter-field">
        <label htmlFor={`${id}-verdict`}>Verdict</label>
        <select id={`${id}-verdict`} name="verdict" defaultValue="">
          <option value="">All verdicts</option>
          {VERDICT_ORDER.map((verdict) => (
            <option key={verdict} value={verdict}>
              {verdict}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-group`}>Group</label>
        <select id={`${id}-group`} name="group" defaultValue="">
          <option value="">All groups</option>
          {groups.map((entry) => (
            <option key={entry.group} value={entry.group}>
              {entry.label}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field filter-text">
        <label htmlFor={`${id}-q`}>Search</label>
        <input
          id={`${id}-q`}
          name="q"
          type="search"
          defaultValue=""
          placeholder="title, id, family or reason"
        />
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-sort`}>Sort</label>
        <select id={`${id}-sort`} name="sort" defaultValue={DEFAULT_VIEW.sort}>
          {SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABEL[sort]}
            </option>
          ))}
        </select>
      </div>
      <button type="button" data-reset="" disabled>
        Reset
      </button>
      <output className="filter-count" aria-live="polite">
        Showing {total} of {total} rows
      </output>
    </form>
  );
}
