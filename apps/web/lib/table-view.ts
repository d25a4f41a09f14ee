/**
 * The home table's view (filters and sort) and its query string, so every view is a permalink:
 * `/?verdict=LOSE&group=query&q=term&sort=ratio-asc`. Pure: the client component calls these.
 */
import type { RowGroup, Verdict } from './definitions';
import { GROUP_ORDER, VERDICT_ORDER } from './prepare';
import type { TableRow } from './table-rows';

export const SORTS = ['group', 'ratio-desc', 'ratio-asc', 'name'] as const;
export type TableSort = (typeof SORTS)[number];

export const SORT_LABEL: Record<TableSort, string> = {
  group: 'Group (scorecard order)',
  'ratio-desc': 'Ratio, best first',
  'ratio-asc': 'Ratio, worst first',
  name: 'Name, A to Z',
};

export interface TableView {
  /** Absent: every verdict. */
  verdict?: Verdict;
  /** Absent: every group. */
  group?: RowGroup;
  /** Free text matched against title, id, family and reason, case-insensitively. */
  q: string;
  sort: TableSort;
}

export const DEFAULT_VIEW: TableView = { q: '', sort: 'group' };

/** What filtering and sorting read of a row: the table's rows, or the same fields read back from the page. */
export type ViewRow = Pick<TableRow, 'id' | 'title' | 'group' | 'family' | 'verdict' | 'reason' | 'ratio'>;

/** One tbody of the filtered table: a group section, or all rows in one list when sorted otherwise. */
export interface TableBody<R extends ViewRow = TableRow> {
  key: string;
  /** Group heading; absent for the single sorted list. */
  label?: string;
  rows: R[];
}

/** Reads a query string; unknown or malformed values fall back to the default, never throw. */
export function parseView(search: string): TableView {
  const params = new URLSearchParams(search);
  const view: TableView = { ...DEFAULT_VIEW };
  const verdict = params.get('verdict');
  if (verdict && (VERDICT_ORDER as readonly string[]).includes(verdict)) view.verdict = verdict as Verdict;
  const group = params.get('group');
  if (group && (GROUP_ORDER as readonly string[]).includes(group)) view.group = group as RowGroup;
  view.q = (params.get('q') ?? '').trim();
  const sort = params.get('sort');
  if (sort && (SORTS as readonly string[]).includes(sort)) view.sort = sort as TableSort;
  return view;
}

/** The query string of a view, without '?'; defaults are left out so the plain URL is the default view. */
export function serializeView(view: TableView): string {
  const params = new URLSearchParams();
  if (view.verdict) params.set('verdict', view.verdict);
  if (view.group) params.set('group', view.group);
  if (view.q.trim() !== '') params.set('q', view.q.trim());
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', view.sort);
  return params.toString();
}

export function isDefaultView(view: TableView): boolean {
  return serializeView(view) === '';
}

export function rowMatches(row: ViewRow, view: TableView): boolean {
  if (view.verdict && row.verdict !== view.verdict) return false;
  if (view.group && row.group !== view.group) return false;
  const needle = view.q.trim().toLowerCase();
  if (needle === '') return true;
  return [row.title, row.id, row.family, row.reason].some((text) => text.toLowerCase().includes(needle));
}

/** Ratio order; rows without a ratio (N/A) go last whichever way, then by id so the order is stable. */
function byRatio(direction: 1 | -1) {
  return (a: ViewRow, b: ViewRow): number => {
    if (a.ratio === undefined || b.ratio === undefined) {
      if (a.ratio === b.ratio) return a.id.localeCompare(b.id);
      return a.ratio === undefined ? 1 : -1;
    }
    return (a.ratio - b.ratio) * direction || a.id.localeCompare(b.id);
  };
}

function byName(a: ViewRow, b: ViewRow): number {
  return a.title.localeCompare(b.title, 'en') || a.id.localeCompare(b.id);
}

/** The table's bodies for a view: grouped sections (empty ones dropped), or one sorted list. */
export function applyView<R extends ViewRow>(
  sections: readonly { group: RowGroup; label: string; rows: R[] }[],
  view: TableView,
): TableBody<R>[] {
  if (view.sort === 'group') {
    return sections
      .map((section) => ({
        key: section.group,
        label: section.label,
        rows: section.rows.filter((row) => rowMatches(row, view)),
      }))
      .filter((body) => body.rows.length > 0);
  }
  const rows = sections.flatMap((section) => section.rows).filter((row) => rowMatches(row, view));
  rows.sort(view.sort === 'name' ? byName : byRatio(view.sort === 'ratio-desc' ? -1 : 1));
  return rows.length > 0 ? [{ key: 'sorted', rows }] : [];
}
