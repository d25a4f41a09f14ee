import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RatiosFigure } from '@/components/ratios-figure';
import { RunOverview } from '@/components/run-overview';
import { SetPicker } from '@/components/set-picker';
import { findChart, setCharts } from '@/lib/chart-files';
import { getLatestModel, getLatestScorecard, getLines, getSet, getSets } from '@/lib/data';
import { setChartHref } from '@/lib/routes';
import { setLabel } from '@/lib/sets';

type Params = { set: string };

export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getSets().map((set) => ({ set: set.slug }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const set = getSet((await params).set);
  return { title: set ? `Latest run: ${setLabel(set)}` : 'Comparable runs' };
}

/** The newest run of one comparable set (corpus, size, options, baseline, machine). */
export default async function SetPage({ params }: { params: Promise<Params> }) {
  const slug = (await params).set;
  const latest = getLatestScorecard(slug);
  const model = getLatestModel(slug);
  if (!latest || !model) notFound();
  const ratios = findChart(setCharts(latest.scorecard), 'ratios.svg')?.chart;
  return (
    <RunOverview
      frozen
      model={model}
      label="Latest run of this set"
      caption={`Every row of the latest run of ${setLabel(latest.set)}.`}
      picker={<SetPicker lines={getLines()} current={slug} />}
      ratios={
        ratios ? (
          <RatiosFigure chart={ratios} href={(file) => setChartHref(slug, file)} levels={model.levels} />
        ) : undefined
      }
    />
  );
}
