import type { ChartFile } from '@/lib/chart-files';
import { Chart } from './chart';

/**
 * Every row's ratio with its interval as one chart, behind a disclosure: the overview grid above
 * already answers at a glance, and the chart, a few thousand pixels tall on a phone, loads only
 * when a reader opens it.
 */
export function RatiosFigure({
  chart,
  href,
  levels,
}: {
  chart: ChartFile;
  href: (file: string) => string;
  levels?: string;
}) {
  return (
    <details className="ratios-figure">
      <summary>Every row&apos;s ratio with its interval, as a chart</summary>
      <figure>
        <figcaption>
          Best first, log scale: a dot per row, its {levels ?? ''} interval as a bar, the dashed line at 1.
          Above 1 the candidate is better.
        </figcaption>
        <Chart chart={chart} href={href} />
      </figure>
    </details>
  );
}
