import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Reproduce } from '@/components/reproduce';
import { RunOverview } from '@/components/run-overview';
import { getRun, readScorecards } from '@/lib/data';

type Params = { id: string };

// Every run gets a static page; ids unknown at build time have no page.
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return readScorecards().map((card) => ({ id: card.runId }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Run ${decodeURIComponent((await params).id)}` };
}

export default async function RunPage({ params }: { params: Promise<Params> }) {
  const id = decodeURIComponent((await params).id);
  const run = getRun(id);
  if (!run) notFound();
  return (
    <>
      <RunOverview view={run} label="Run" caption={`Every row of run ${id}.`} />
      <Reproduce scorecard={run.scorecard} />
    </>
  );
}
