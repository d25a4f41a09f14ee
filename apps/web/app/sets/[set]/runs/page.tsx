import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RunsTable } from '@/components/runs-table';
import { SetOptions } from '@/components/set-options';
import { VerdictHeatmap } from '@/components/verdict-heatmap';
import { getHeatmap, getRunSummaries, getSet, getSets } from '@/lib/data';
import { runsHref, setHref } from '@/lib/routes';
import { compactHeatmap } from '@/lib/runs';
import { setLabel } from '@/lib/sets';

type Params = { set: string };

export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getSets().map((set) => ({ set: set.slug }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const set = getSet((await params).set);
  return { title: set ? `Verdicts over time: ${setLabel(set)}` : 'Verdicts over time' };
}

/** The verdict of every row in the newest runs of one comparable set, and every run of it. */
export default async function SetRunsPage({ params }: { params: Promise<Params> }) {
  const slug = (await params).set;
  const set = getSet(slug);
  const heatmap = getHeatmap(slug);
  if (!set || !heatmap) notFound();
  const runs = getRunSummaries().filter((run) => run.set === slug);
  return (
    <>
      <p className="eyebrow">History</p>
      <h1>Verdicts over time</h1>
      <p className="lede">
        {set.name}, {set.set.machine}: {set.runs.length} run{set.runs.length === 1 ? '' : 's'}. See{' '}
        <a href={setHref(set.slug)}>the latest run</a> or <a href={runsHref()}>every set</a>.
      </p>
      <SetOptions options={set.options} />
      <VerdictHeatmap heatmap={compactHeatmap(heatmap)} set={set.slug} />
      <h2 className="section-title">Every run of this set</h2>
      <RunsTable runs={runs} label="Every run of this set" caption="Every run of this set, newest first." />
    </>
  );
}
