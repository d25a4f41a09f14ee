import type { Metadata } from 'next';
import { COMPARE_INDEX_ID, ComparePicker, type PickerSet } from '@/components/compare-picker';
import { getComparePairs, getSets } from '@/lib/data';
import { formatDate } from '@/lib/format';
import { compareAnyHref } from '@/lib/routes';
import { setLabel } from '@/lib/sets';

export const metadata: Metadata = { title: 'Compare runs' };

/** Pairs listed per set on the index; any pair can be picked. */
const PAIRS_PER_SET = 8;

function pickerSets(): PickerSet[] {
  return getSets().map((set) => ({
    slug: set.slug,
    label: setLabel(set),
    runs: set.runs.map((run) => ({
      runId: run.runId,
      label: `${formatDate(run.createdAt)} · ${run.manifest.gitRevision.slice(0, 7)}`,
    })),
  }));
}

/**
 * /compare/ lists the newest pairs of each set, and draws any two runs of one set given as
 * ?a=<run>&b=<run> in the browser, from the two runs' run.json: no page per pair, so the site does
 * not grow with the square of its runs. The page is static HTML; one small script on Preact
 * (scripts/compare-entry.tsx, added by the build where it finds `data-compare-app`) wires the
 * picker and draws a pair into `data-compare-view`, so a phone parses no framework for it.
 */
export default function ComparePage() {
  const sets = pickerSets();
  const pairs = getComparePairs(PAIRS_PER_SET);
  return (
    <div data-compare-app="" data-compare-sets={JSON.stringify(sets)}>
      <div data-compare-view="" />
      <div id={COMPARE_INDEX_ID}>
        <p className="eyebrow">Compare</p>
        <h1>Compare runs</h1>
        <p className="lede">
          Any two runs of one comparable set (same corpus, size, rows, options, baseline and machine): the
          overall change first, then the rows whose verdict flipped, each marked as beyond or within the
          runs&apos; noise.
        </p>
        <div data-compare-picker="">
          <ComparePicker sets={sets} />
        </div>
        {getSets().map((set) => {
          const setPairs = pairs.filter(({ after }) => set.runs.some((run) => run.runId === after));
          return (
            <section key={set.slug} aria-labelledby={`pairs-${set.slug}`}>
              <h2 id={`pairs-${set.slug}`} className="section-title">
                {setLabel(set)}
              </h2>
              {setPairs.length === 0 ? (
                <p className="notice">This set has one run so far: nothing to compare it with yet.</p>
              ) : (
                <ul className="pair-list">
                  {setPairs.map(({ before, after }) => {
                    const was = set.runs.find((run) => run.runId === before);
                    const now = set.runs.find((run) => run.runId === after);
                    return (
                      <li key={`${before}/${after}`}>
                        <a href={compareAnyHref(before, after)}>
                          {formatDate(now?.createdAt ?? after)} vs {formatDate(was?.createdAt ?? before)}
                        </a>{' '}
                        <span className="muted">
                          commits <code>{now?.manifest.gitRevision.slice(0, 7)}</code> vs{' '}
                          <code>{was?.manifest.gitRevision.slice(0, 7)}</code>
                        </span>
                      </li>
                    );
                  })}
                </ul>
              )}
              {set.runs.length - 1 > setPairs.length ? (
                <p className="muted">{set.runs.length - 1 - setPairs.length} older pairs: pick them above.</p>
              ) : null}
            </section>
          );
        })}
      </div>
    </div>
  );
}
