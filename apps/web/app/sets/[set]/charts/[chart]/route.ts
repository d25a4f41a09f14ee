/**
 * The charts of each set's newest run (every row's ratio, the ingest scaling curve, the rate
 * sweeps), drawn at build time (lib/chart-files.ts). Only the newest run of a set has them: older
 * runs' pages are drawn in the browser from their run.json, so the build does not grow with runs.
 */
import { chartFileNames, findChart, setCharts } from '@/lib/chart-files';
import { renderSpecSvg } from '@/lib/charts';
import { getLatestScorecard, getSets } from '@/lib/data';

type Params = { set: string; chart: string };

export const dynamic = 'force-static';
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getSets().flatMap((set) => {
    const latest = set.runs.at(-1);
    return latest ? chartFileNames(setCharts(latest)).map((chart) => ({ set: set.slug, chart })) : [];
  });
}

export async function GET(_request: Request, { params }: { params: Promise<Params> }): Promise<Response> {
  const { set, chart } = await params;
  const latest = getLatestScorecard(decodeURIComponent(set));
  const found = latest ? findChart(setCharts(latest.scorecard), decodeURIComponent(chart)) : undefined;
  if (!found) return new Response('no such chart', { status: 404 });
  return new Response(await renderSpecSvg(found.chart.spec(found.variant)), {
    headers: { 'content-type': 'image/svg+xml' },
  });
}
