/**
 * The run table's filters and sort, as plain DOM code: the server writes the table and its form
 * (components/table-controls.tsx, hidden until this runs); this wires the form to the table, keeps
 * the view in the URL (every view is a permalink) and moves the table's rows in place, never
 * redrawing them. lib/table-view.ts decides which rows show and in what order (the same rule the
 * unit tests hold). Static pages load it as a small script of their own (scripts/enhance-entry.ts)
 * instead of React; the run page, drawn by React, calls it once the run is on screen.
 */
import type { RowGroup, Verdict } from './definitions';
import {
  applyView,
  DEFAULT_VIEW,
  isDefaultView,
  parseView,
  serializeView,
  type TableSort,
  type TableView,
  type ViewRow,
} from './table-view';

type DomRow = ViewRow & { element: HTMLTableRowElement };

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

/** Shows a view: grouped rows back into their group, sorted rows into one list, the others hidden. */
function showView(table: Table, view: TableView): number {
  const bodies = applyView(table.sections, view);
  let shown = 0;
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
      shown += 1;
    }
  }
  table.empty.hidden = shown > 0;
  return shown;
}

/** Wires one controls form (`form[data-table-controls]`) to its table; a form is wired once. */
export function enhanceTable(form: HTMLFormElement): void {
  if (form.dataset.enhanced !== undefined) return;
  const element = document.getElementById(form.dataset.tableControls ?? '');
  const table = element instanceof HTMLTableElement ? readTable(element) : undefined;
  if (!table) return;
  form.dataset.enhanced = '';
  const field = <T extends HTMLElement>(name: string) => form.querySelector<T>(`[name="${name}"]`);
  const verdict = field<HTMLSelectElement>('verdict');
  const group = field<HTMLSelectElement>('group');
  const q = field<HTMLInputElement>('q');
  const sort = field<HTMLSelectElement>('sort');
  const reset = form.querySelector<HTMLButtonElement>('button[type="reset"], button[data-reset]');
  const count = form.querySelector<HTMLOutputElement>('output');
  const total = table.sections.reduce((sum, section) => sum + section.rows.length, 0);
  const groups = new Set(table.sections.map((section) => section.group));

  const render = (view: TableView) => {
    if (verdict) verdict.value = view.verdict ?? '';
    if (group) group.value = view.group ?? '';
    if (q && q.value.trim() !== view.q) q.value = view.q;
    if (sort) sort.value = view.sort;
    if (reset) reset.disabled = isDefaultView(view);
    const shown = showView(table, view);
    if (count) count.textContent = `Showing ${shown} of ${total} rows`;
    const query = serializeView(view);
    const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
    if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
      window.history.replaceState(window.history.state, '', url);
    }
  };
  const read = (): TableView => {
    const view: TableView = {
      q: q?.value.trim() ?? '',
      sort: (sort?.value as TableSort) || DEFAULT_VIEW.sort,
    };
    if (verdict?.value) view.verdict = verdict.value as Verdict;
    if (group?.value) view.group = group.value as RowGroup;
    return view;
  };

  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('input', () => render(read()));
  form.addEventListener('change', () => render(read()));
  reset?.addEventListener('click', (event) => {
    event.preventDefault();
    if (q) q.value = '';
    render(DEFAULT_VIEW);
  });
  const restored = parseView(window.location.search);
  // A permalink may name a group this run does not have: show the run's groups, not an empty table.
  if (restored.group && !groups.has(restored.group)) delete restored.group;
  // The server drew the default view, form included: moving every row to where it already is
  // would only make the browser lay the whole table out again (on the home page's hundred rows,
  // a 430 ms task on Lighthouse's mobile CPU).
  if (!isDefaultView(restored)) render(restored);
  form.hidden = false;
}

/** Wires every controls form on the page. */
export function enhanceTables(root: ParentNode = document): void {
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-table-controls]')) enhanceTable(form);
}
