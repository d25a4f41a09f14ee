import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Frozen } from '@/components/frozen';
import { ThroughputView } from '@/components/throughput-view';
import { getLatestScorecard, getSet, getSets } from '@/lib/data';
import { setLabel } from '@/lib/sets';

type Params = { set: string };

export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getSets().map((set) => ({ set: set.slug }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const set = getSet((await params).set);
  return { title: set ? `Throughput and scaling: ${setLabel(set)}` : 'Throughput and scaling' };
}

export default async function SetThroughputPage({ params }: { params: Promise<Params> }) {
  const latest = getLatestScorecard((await params).set);
  if (!latest) notFound();
  return (
    <Frozen>
      <ThroughputView scorecard={latest.scorecard} set={latest.set} />
    </Frozen>
  );
}
