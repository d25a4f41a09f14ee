'use client';

import { useEffect, useId, useState } from 'react';
import type { RowGroup, Verdict } from '@/lib/definitions';
import { VERDICT_ORDER } from '@/lib/prepare';
import type { TableSection } from '@/lib/table-rows';
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
import { ScoreTable } from './score-table';

/**
 * The run table with filters and sort kept in the URL. The server renders the default view (every
 * row, grouped) so the page is complete without JavaScript; after hydration the view is restored
 * from the query string and every change is written back with history.replaceState.
 */
export function FilterableScoreTable({
  sections,
  caption,
  set,
}: {
  /** Only what the table shows (lib/table-rows.ts): these props are serialised into the page. */
  sections: TableSection[];
  caption: string;
  set: string;
}) {
  const [view, setView] = useState<TableView>(DEFAULT_VIEW);
  // Controls appear only once they can work: without JavaScript they would do nothing.
  const [ready, setReady] = useState(false);
  const id = useId();

  useEffect(() => {
    const restored = parseView(window.location.search);
    // A permalink may name a group this run does not have: show the run's groups, not an empty table.
    if (restored.group && !sections.some((section) => section.group === restored.group)) {
      delete restored.group;
    }
    setView(restored);
    setReady(true);
  }, [sections]);

  useEffect(() => {
    if (!ready) return;
    const query = serializeView(view);
    const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
    if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
      window.history.replaceState(window.history.state, '', url);
    }
  }, [view, ready]);

  const bodies = applyView(sections, view);
  const total = sections.reduce((sum, section) => sum + section.rows.length, 0);
  const shown = bodies.reduce((sum, body) => sum + body.rows.length, 0);
  const update = (change: Partial<TableView>) => setView((current) => ({ ...current, ...change }));

  return (
    <>
      {ready ? (
        <form
          className="filters"
          aria-label="Filter and sort rows"
          onSubmit={(event) => event.preventDefault()}
        >
          <div className="filter-field">
            <label htmlFor={`${id}-verdict`}>Verdict</label>
            <select
              id={`${id}-verdict`}
              value={view.verdict ?? ''}
              onChange={(event) =>
                update({ verdict: (event.target.value || undefined) as Verdict | undefined })
              }
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
              onChange={(event) =>
                update({ group: (event.target.value || undefined) as RowGroup | undefined })
              }
            >
              <option value="">All groups</option>
              {sections.map((section) => (
                <option key={section.group} value={section.group}>
                  {section.label}
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
      ) : null}
      <ScoreTable
        bodies={bodies}
        caption={caption}
        set={set}
        showCpu={sections.some((section) => section.rows.some((row) => row.cpu !== undefined))}
      />
    </>
  );
}
