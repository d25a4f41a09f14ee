'use client';

import { compareAnyHref, rowHref, runHref } from '@/lib/routes';
import type { CompactHeatmap } from '@/lib/runs';
import { TableScroll } from './table-scroll';

const WORD: Record<string, string> = { W: 'WIN', L: 'LOSE', T: 'TIE', N: 'N/A' };
const CLASS: Record<string, string> = { W: 'h-win', L: 'h-lose', T: 'h-tie', N: 'h-na' };
const LETTER: Record<string, string> = { W: 'W', L: 'L', T: 'T', N: 'NA' };

/**
 * Rows x runs of one comparable set, each cell the row's verdict in that run as colour and a
 * letter (W, L, T, NA, spelled out in the caption); a cell whose verdict changed from the row's
 * previous one is outlined, says so in words for screen readers, and links to the comparison of
 * that run with its predecessor. A client component over one character per cell, so the page
 * carries the grid once as HTML and once as a short string, not as a tree per cell.
 */
export function VerdictHeatmap({ heatmap, set }: { heatmap: CompactHeatmap; set: string }) {
  const { runs } = heatmap;
  return (
    <>
      <p className="heatmap-key">
        W win, L lose, T tie, NA not comparable, · not measured. Outlined cells changed verdict since the
        row&apos;s previous run and link to that comparison.
        {heatmap.omitted > 0 ? ` The ${heatmap.omitted} oldest runs of the set are not shown.` : ''}
      </p>
      <TableScroll label="Verdicts over time">
        <table className="heatmap">
          {/* The key above says it on screen; the caption names the table for screen readers. */}
          <caption className="visually-hidden">
            Verdict of every row in each run, oldest run on the left.
          </caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              {runs.map((run) => (
                <th scope="col" key={run.runId} className="heat-run">
                  <a href={runHref(run.runId)}>
                    {run.day}
                    <span className="heat-time">{run.commit}</span>
                  </a>
                </th>
              ))}
              <th scope="col" className="num">
                Changes
              </th>
            </tr>
          </thead>
          {heatmap.sections.map((section) => (
            <tbody key={section.label}>
              <tr className="group-row">
                <th scope="rowgroup" colSpan={runs.length + 2}>
                  {section.label}
                </th>
              </tr>
              {section.rows.map((row) => {
                let previous: string | undefined;
                let before: string | undefined;
                return (
                  <tr key={row.id} data-row-id={row.id}>
                    <th scope="row" className="row-name">
                      <a href={rowHref(set, row.id)}>{row.id}</a>
                    </th>
                    {[...row.cells].map((code, index) => {
                      const run = runs[index]?.runId ?? String(index);
                      if (code === '.') return <td key={run}>·</td>;
                      const changedFrom = previous !== undefined && previous !== code ? previous : undefined;
                      const from = before;
                      previous = code;
                      before = run;
                      if (changedFrom && from) {
                        return (
                          <td key={run} className={`${CLASS[code]} hc`} data-changed="true">
                            <a href={compareAnyHref(from, run)}>
                              {LETTER[code]}
                              <span className="visually-hidden">
                                {` ${WORD[code]} (was ${WORD[changedFrom]})`}
                              </span>
                            </a>
                          </td>
                        );
                      }
                      return (
                        <td key={run} className={CLASS[code]}>
                          {LETTER[code]}
                        </td>
                      );
                    })}
                    <td className="num">{row.changes}</td>
                  </tr>
                );
              })}
            </tbody>
          ))}
        </table>
      </TableScroll>
    </>
  );
}
