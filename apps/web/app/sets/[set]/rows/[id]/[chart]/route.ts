/** A row page's chart files (`trend.svg`, `trend.narrow.svg`, ...), drawn at build time (lib/chart-files.ts). */
import { chartFileNames, findChart, rowCharts } from '@/lib/chart-files';
import { renderSpecSvg } from '@/lib/charts';
import { getRowParams, getRowView } from '@/lib/data';

type Params = { set: string; id: string; chart: string };

export const dynamic = 'force-static';
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getRowParams().flatMap(({ set, id }) => {
    const view = getRowView(set, id);
    return view
      ? chartFileNames(rowCharts(view.row, view.trend.points, view.scorecard)).map((chart) => ({
          set,
          id,
          chart,
        }))
      : [];
  });
}

export async function GET(_request: Request, { params }: { params: Promise<Params> }): Promise<Response> {
  const { set, id, chart } = await params;
  const view = getRowView(decodeURIComponent(set), decodeURIComponent(id));
  const found = view
    ? findChart(rowCharts(view.row, view.trend.points, view.scorecard), decodeURIComponent(chart))
    : undefined;
  if (!found) return new Response('no such chart', { status: 404 });
  return new Response(await renderSpecSvg(found.chart.spec(found.variant)), {
    headers: { 'content-type': 'image/svg+xml' },
  });
}
