import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CompareAny, ComparePicker, type PickerSet } from '@/components/compare-picker';
import { RunComparisonView } from '@/components/run-comparison';
import { getComparePairs, getComparison, getSets } from '@/lib/data';
import { formatDate } from '@/lib/format';
import { compareHref } from '@/lib/routes';
import { setLabel } from '@/lib/sets';

// /compare/ (the index, which also draws any pair given as ?a=&b=) and /compare/<before>/<after>/
// for each run and the previous run of its comparable set. An optional catch-all, so the route
// always has at least the index to export.
type Params = { pair?: string[] };

export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return [{ pair: [] }, ...getComparePairs().map(({ before, after }) => ({ pair: [before, after] }))];
}

function pickerSets(): PickerSet[] {
  return getSets().map((set) => ({
    slug: set.slug,
    label: setLabel(set.set),
    runs: set.runs.map((run) => ({
      runId: run.runId,
      label: `${formatDate(run.createdAt)} · ${run.manifest.gitRevision.slice(0, 7)}`,
    })),
  }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const pair = (await params).pair ?? [];
  return { title: pair.length === 2 ? `Compare ${pair[1]} with ${pair[0]}` : 'Compare runs' };
}

export default async function ComparePage({ params }: { params: Promise<Params> }) {
  const pair = ((await params).pair ?? []).map(decodeURIComponent);
  const sets = pickerSets();
  const pairs = getComparePairs();
  if (pair.length === 0) {
    return (
      <CompareAny sets={sets} pairs={pairs}>
        <p className="eyebrow">Compare</p>
        <h1>Compare runs</h1>
        <p className="lede">
          Any two runs of one comparable set (same corpus, size, rows, baseline and machine): rows whose
          verdict flipped come first. Pick them below, or open a run against the previous run of its set.
        </p>
        <ComparePicker sets={sets} pairs={pairs} />
        {getSets().map((set) => {
          const setPairs = pairs.filter(({ after }) => set.runs.some((run) => run.runId === after)).reverse();
          return (
            <section key={set.slug} aria-labelledby={`pairs-${set.slug}`}>
              <h2 id={`pairs-${set.slug}`} className="section-title">
                {setLabel(set.set)}
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
                        <a href={compareHref(before, after)}>
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
            </section>
          );
        })}
      </CompareAny>
    );
  }
  const [before, after] = pair;
  const comparison = pair.length === 2 && before && after ? getComparison(before, after) : undefined;
  if (!comparison) notFound();
  return (
    <RunComparisonView
      comparison={comparison}
      picker={
        <ComparePicker
          sets={sets}
          pairs={pairs}
          current={{
            set: comparison.after.set,
            before: comparison.before.runId,
            after: comparison.after.runId,
          }}
        />
      }
    />
  );
}
