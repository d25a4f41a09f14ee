import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { FilterableScoreTable } from '@/components/filterable-score-table';
import { RunFacts } from '@/components/run-facts';
import { RunHeadline } from '@/components/run-headline';
import { getRun, getRunSummaries } from '@/lib/data';
import { compareHref, runHref, runsHref } from '@/lib/routes';

type Params = { id: string };

// Every run gets a static page; ids unknown at build time have no page.
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getRunSummaries().map((run) => ({ id: run.runId }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Run ${decodeURIComponent((await params).id)}` };
}

export default async function RunPage({ params }: { params: Promise<Params> }) {
  const id = decodeURIComponent((await params).id);
  const run = getRun(id);
  if (!run) notFound();
  // Summaries are newest first: the next run is the one before this one in the list.
  const summaries = getRunSummaries();
  const index = summaries.findIndex((summary) => summary.runId === id);
  const previous = summaries[index]?.previousRunId;
  const next = index > 0 ? summaries[index - 1]?.runId : undefined;
  return (
    <>
      <RunHeadline scorecard={run.scorecard} label="Run" />
      <nav className="run-links" aria-label="This run">
        <a href={runsHref()}>All runs</a>
        {previous ? <a href={compareHref(previous, id)}>Compare with the previous run</a> : null}
        {previous ? <a href={runHref(previous)}>Previous run</a> : null}
        {next ? <a href={runHref(next)}>Next run</a> : null}
      </nav>
      <RunFacts scorecard={run.scorecard} />
      <h2 className="section-title">Rows</h2>
      <FilterableScoreTable sections={run.sections} caption={`Every row of run ${id}.`} />
    </>
  );
}
