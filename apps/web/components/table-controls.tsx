'use client';

import { useEffect, useId, useRef, useState } from 'react';
import type { RowGroup, Verdict } from '@/lib/definitions';
import { VERDICT_ORDER } from '@/lib/prepare';
import type { TableRow } from '@/lib/table-rows';
import {
  applyView,
  DEFAULT_VIEW,
  isDefaultView,
  parseView,
  SORT_LABEL,
  SORTS,
  serializeView,
  type TableSort,
  type TableView,
} from '@/lib/table-view';

type DomRow = Pick<TableRow, 'id' | 'title' | 'group' | 'family' | 'verdict' | 'reason' | 'ratio'> & {
  element: HTMLTableRowElement;
};

interface Table {
  grouped: Map<string, HTMLTableSectionElement>;
  sorted: HTMLTableSectionElement;
  empty: HTMLTableSectionElement;
  sections: { group: RowGroup; label: string; rows: DomRow[] }[];
}

/** The table as the page drew it: its groups in order and each row's fields, read once from the markup. */
function readTable(table: HTMLTableElement): Table | undefined {
  const sorted = table.querySelector<HTMLTableSectionElement>('tbody[data-sorted]');
  const empty = table.querySelector<HTMLTableSectionElement>('tbody[data-empty]');
  if (!sorted || !empty) return undefined;
  const grouped = new Map<string, HTMLTableSectionElement>();
  const sections = [...table.querySelectorAll<HTMLTableSectionElement>('tbody[data-group]')].map((body) => {
    const group = body.dataset.group as RowGroup;
    grouped.set(group, body);
    const rows = [...body.querySelectorAll<HTMLTableRowElement>('tr[data-row-id]')].map((element): DomRow => {
      const ratio = Number(element.dataset.ratio);
      const row: DomRow = {
        element,
        id: element.dataset.rowId ?? '',
        title: element.querySelector('.row-name a')?.textContent ?? '',
        group,
        family: element.dataset.family ?? '',
        verdict: element.dataset.verdict as Verdict,
        reason: element.querySelector('td.reason summary')?.textContent ?? '',
      };
      if (element.dataset.ratio !== undefined && Number.isFinite(ratio)) row.ratio = ratio;
      return row;
    });
    return { group, label: '', rows };
  });
  return { grouped, sorted, empty, sections };
}

/**
 * Shows the view: lib/table-view.ts decides which rows show and in what order (the same rule the
 * tests hold), and the rows are moved, not redrawn: grouped rows back into their group, sorted
 * rows into one list, the others hidden.
 */
function showView(table: Table, view: TableView): number {
  const bodies = applyView(table.sections, view);
  const shown = new Set<HTMLTableRowElement>();
  for (const section of table.sections) for (const row of section.rows) row.element.hidden = true;
  for (const body of table.grouped.values()) body.hidden = true;
  table.sorted.hidden = true;
  for (const body of bodies) {
    const target = body.key === 'sorted' ? table.sorted : table.grouped.get(body.key);
    if (!target) continue;
    target.hidden = false;
    for (const row of body.rows) {
      row.element.hidden = false;
      target.append(row.element);
      shown.add(row.element);
    }
  }
  table.empty.hidden = shown.size > 0;
  return shown.size;
}

/**
 * The filters and sort of the run table, kept in the URL (every view is a permalink). The table is
 * plain HTML that works without JavaScript; these controls appear once they can work, and rearrange
 * its rows in place.
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
  const [view, setView] = useState<TableView>(DEFAULT_VIEW);
  const [ready, setReady] = useState(false);
  const [shown, setShown] = useState(total);
  const table = useRef<Table | undefined>(undefined);
  const id = useId();

  useEffect(() => {
    const element = document.getElementById(tableId);
    table.current = element instanceof HTMLTableElement ? readTable(element) : undefined;
    const restored = parseView(window.location.search);
    // A permalink may name a group this run does not have: show the run's groups, not an empty table.
    if (restored.group && !groups.some((entry) => entry.group === restored.group)) delete restored.group;
    setView(restored);
    setReady(true);
  }, [tableId, groups]);

  useEffect(() => {
    if (!ready || !table.current) return;
    setShown(showView(table.current, view));
    const query = serializeView(view);
    const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
    if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
      window.history.replaceState(window.history.state, '', url);
    }
  }, [view, ready]);

  if (!ready) return null;
  const update = (change: Partial<TableView>) => setView((current) => ({ ...current, ...change }));
  return (
    <form className="filters" aria-label="Filter and sort rows" onSubmit={(event) => event.preventDefault()}>
      <div className="filter-field">
        <label htmlFor={`${id}-verdict`}>Verdict</label>
        <select
          id={`${id}-verdict`}
          value={view.verdict ?? ''}
          onChange={(event) => update({ verdict: (event.target.value || undefined) as Verdict | undefined })}
        >
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
        <select
          id={`${id}-group`}
          value={view.group ?? ''}
          onChange={(event) => update({ group: (event.target.value || undefined) as RowGroup | undefined })}
        >
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
          type="search"
          value={view.q}
          placeholder="title, id, family or reason"
          onChange={(event) => update({ q: event.target.value })}
        />
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-sort`}>Sort</label>
        <select
          id={`${id}-sort`}
          value={view.sort}
          onChange={(event) => update({ sort: event.target.value as TableSort })}
        >
          {SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABEL[sort]}
            </option>
          ))}
        </select>
      </div>
      <button type="button" onClick={() => setView(DEFAULT_VIEW)} disabled={isDefaultView(view)}>
        Reset
      </button>
      <output className="filter-count" aria-live="polite">
        Showing {shown} of {total} rows
      </output>
    </form>
  );
}
