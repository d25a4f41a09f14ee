/**
 * A run's files, exported at build time beside its page: the downloads (scorecard.json as
 * published, SCORECARD.md, rows.csv, the run's history tables as Parquet), the rows the compare
 * page reads (compare.json) and the run's charts (ratios, scaling, sweeps; lib/chart-files.ts).
 */
import { chartFileNames, findChart, runCharts } from '@/lib/chart-files';
import { renderSpecSvg } from '@/lib/charts';
import { compareRows } from '@/lib/compare-data';
import { getRun, readRunFile, readRunParquet, readScorecards, runDownloads } from '@/lib/data';
import { ratioDefinition } from '@/lib/headline';
import { publishedMarkdown, publishedScorecard, rowsCsv } from '@/lib/publish';

type Params = { id: string; file: string };

export const dynamic = 'force-static';
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return readScorecards().flatMap((card) =>
    [...runDownloads(card.runId), 'compare.json', ...chartFileNames(runCharts(card))].map((file) => ({
      id: card.runId,
      file,
    })),
  );
}

const TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  svg: 'image/svg+xml',
  parquet: 'application/vnd.apache.parquet',
};

export async function GET(_request: Request, { params }: { params: Promise<Params> }): Promise<Response> {
  const { id, file } = await params;
  const run = getRun(decodeURIComponent(id));
  const name = decodeURIComponent(file);
  if (!run) return new Response('no such run', { status: 404 });
  const card = run.scorecard;
  const type = TYPES[name.split('.').at(-1) ?? ''] ?? 'application/octet-stream';
  const reply = (body: BodyInit) => new Response(body, { headers: { 'content-type': type } });
  if (name === 'scorecard.json') return reply(`${JSON.stringify(publishedScorecard(card), null, 2)}\n`);
  if (name === 'SCORECARD.md')
    return reply(publishedMarkdown(readRunFile(card.runId, name).toString('utf8'), card));
  if (name === 'rows.csv') return reply(rowsCsv(card, ratioDefinition));
  if (name === 'compare.json') return reply(JSON.stringify(compareRows(card, run.set.slug)));
  if (name.endsWith('.parquet')) return reply(new Uint8Array(readRunParquet(card.runId, name)));
  const chart = findChart(runCharts(card), name);
  if (chart) return reply(await renderSpecSvg(chart.chart.spec(chart.variant)));
  return new Response('no such file', { status: 404 });
}
