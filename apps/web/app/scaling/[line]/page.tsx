import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Frozen } from '@/components/frozen';
import { SetOptions } from '@/components/set-options';
import { TableScroll } from '@/components/table-scroll';
import { VerdictBadge } from '@/components/verdict-badge';
import { getLine, getLines } from '@/lib/data';
import { formatDate, formatRatio } from '@/lib/format';
import { rowHref, runHref, setHref } from '@/lib/routes';
import { lineTable } from '@/lib/scaling';

type Params = { line: string };

export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getLines()
    .filter((line) => line.sets.length > 1)
    .map((line) => ({ line: line.slug }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const line = getLine((await params).line);
  return { title: line ? `Across sizes: ${line.name}` : 'Across sizes' };
}

/** One scaling line: the newest run at each corpus size of the same options, row by row. */
export default async function LinePage({ params }: { params: Promise<Params> }) {
  const line = getLine((await params).line);
  if (!line || line.sets.length < 2) notFound();
  const table = lineTable(line);
  // Static: kept as the server wrote it, without hydrating (components/frozen.tsx).
  return (
    <Frozen>
      <article className="scaling">
        <p className="eyebrow">Across sizes</p>
        <h1>{line.name}</h1>
        <SetOptions options={line.options} />
        <p className="lede">
          The same rows and options against {line.baseline} on {line.machine}, at each corpus size the
          published runs have: the newest run of each. Sizes with other options are other lines; a size this
          line lacks has no run with these options.
        </p>
        <ul className="line-columns">
          {table.columns.map((column) => (
            <li key={column.slug} data-size={column.size}>
              <a href={setHref(column.slug)}>
                <strong>{column.docs.toLocaleString('en-US')} docs</strong>
              </a>
              : read rows {formatRatio(column.geomean)} (geometric mean), WIN {column.counts.WIN} · LOSE{' '}
              {column.counts.LOSE} · TIE {column.counts.TIE} · N/A {column.counts['N/A']}; run{' '}
              <a href={runHref(column.runId)}>
                <time dateTime={column.createdAt}>{formatDate(column.createdAt)}</time>
              </a>
              , commit <code>{column.gitRevision.slice(0, 7)}</code>
            </li>
          ))}
        </ul>
        <TableScroll label="Every row at each size">
          <table className="score-table line-table cards">
            <caption>
              Each row&apos;s verdict and ratio at each size (above 1 the candidate is better), and each
              engine&apos;s scored number, candidate / baseline.
            </caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                {table.columns.map((column) => (
                  <th scope="col" key={column.slug} className="num">
                    {column.size}
                  </th>
                ))}
              </tr>
            </thead>
            {table.sections.map((section) => (
              <tbody key={section.group}>
                <tr className="group-row">
                  <th scope="rowgroup" colSpan={table.columns.length + 1}>
                    {section.label}
                  </th>
                </tr>
                {section.rows.map((row) => (
                  <tr key={row.id} data-row-id={row.id}>
                    <th scope="row" className="row-name">
                      {row.title}
                      <code className="row-id">{row.id}</code>
                    </th>
                    {row.cells.map((cell, index) => {
                      const column = table.columns[index];
                      if (!column) return null;
                      return (
                        <td key={column.slug} className="num" data-label={`${column.size} docs`}>
                          {cell ? (
                            <a href={rowHref(column.slug, row.id)} className="line-cell">
                              <VerdictBadge verdict={cell.verdict} /> {cell.ratioText}
                              {cell.sides ? <span className="ci">{cell.sides}</span> : null}
                            </a>
                          ) : (
                            <span className="muted">not measured</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </TableScroll>
      </article>
    </Frozen>
  );
}
