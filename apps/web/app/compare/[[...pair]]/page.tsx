import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { type ComparePair, ComparePicker, CompareQueryRedirect } from '@/components/compare-picker';
import { RunComparisonView } from '@/components/run-comparison';
import { getComparePairs, getComparison, getRunSummaries } from '@/lib/data';
import { formatDate } from '@/lib/format';
import { compareHref } from '@/lib/routes';

// /compare/ (the index) and /compare/<before>/<after>/ for each run and its predecessor. An
// optional catch-all, so the route always has at least the index to export even with one run.
type Params = { pair?: string[] };

export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return [{ pair: [] }, ...getComparePairs().map(({ before, after }) => ({ pair: [before, after] }))];
}

function pickerPairs(): ComparePair[] {
  const dates = new Map(getRunSummaries().map((run) => [run.runId, run.createdAt]));
  return getComparePairs()
    .reverse()
    .map(({ before, after }) => ({
      before,
      after,
      href: compareHref(before, after),
      label: `${formatDate(dates.get(after) ?? after)} vs ${formatDate(dates.get(before) ?? before)}`,
    }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const pair = (await params).pair ?? [];
  return { title: pair.length === 2 ? `Compare ${pair[1]} with ${pair[0]}` : 'Compare runs' };
}

export default async function ComparePage({ params }: { params: Promise<Params> }) {
  const pair = ((await params).pair ?? []).map(decodeURIComponent);
  const pairs = pickerPairs();
  if (pair.length === 0) {
    return (
      <>
        <p className="eyebrow">Compare</p>
        <h1>Compare runs</h1>
        <p className="lede">
          Each run against the run before it: rows whose verdict flipped come first. Newest first.
        </p>
        <CompareQueryRedirect pairs={pairs} />
        {pairs.length === 0 ? (
          <p className="notice">There is only one run so far: nothing to compare it with yet.</p>
        ) : (
          <ul className="pair-list">
            {pairs.map((candidate) => (
              <li key={candidate.href}>
                <a href={candidate.href}>{candidate.label}</a>{' '}
                <span className="muted">
                  <code>{candidate.after}</code> vs <code>{candidate.before}</code>
                </span>
              </li>
            ))}
          </ul>
        )}
      </>
    );
  }
  const [before, after] = pair;
  const comparison = pair.length === 2 && before && after ? getComparison(before, after) : undefined;
  if (!comparison) notFound();
  return (
    <RunComparisonView
      comparison={comparison}
      picker={
        <ComparePicker pairs={pairs} current={compareHref(comparison.before.runId, comparison.after.runId)} />
      }
    />
  );
}
