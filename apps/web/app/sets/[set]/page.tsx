import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RunOverview } from '@/components/run-overview';
import { getLatestRun, getSet, getSets } from '@/lib/data';
import { setLabel } from '@/lib/sets';

type Params = { set: string };

export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getSets().map((set) => ({ set: set.slug }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const set = getSet((await params).set);
  return { title: set ? `Latest run: ${setLabel(set.set)}` : 'Comparable runs' };
}

/** The newest run of one comparable set (corpus, size, baseline, machine). */
export default async function SetPage({ params }: { params: Promise<Params> }) {
  const view = getLatestRun((await params).set);
  if (!view) notFound();
  return (
    <RunOverview
      view={view}
      label="Latest run of this set"
      caption={`Every row of the latest run of ${setLabel(view.set.set)}.`}
    />
  );
}
