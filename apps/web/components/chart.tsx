import type { ChartFile } from '@/lib/chart-files';
import { chartFileName } from '@/lib/chart-files';

/**
 * A chart file drawn at build time (lib/chart-files.ts), in the width that suits the screen: the
 * narrow drawing on phones, the wide one elsewhere. Width and height are set, so the page reserves
 * the space before the image arrives; the text alternative says what the chart shows.
 */
export function Chart({
  chart,
  href,
  lazy = true,
}: {
  chart: ChartFile;
  /** Maps a file name ("trend.svg") to its URL. */
  href: (file: string) => string;
  lazy?: boolean;
}) {
  const wide = chart.size('wide');
  const narrow = chart.size('narrow');
  return (
    <picture className="chart" data-chart={chart.name}>
      <source
        media="(max-width: 640px)"
        srcSet={href(chartFileName(chart.name, 'narrow'))}
        width={narrow.width}
        height={narrow.height}
      />
      <img
        src={href(chartFileName(chart.name, 'wide'))}
        alt={chart.alt}
        width={wide.width}
        height={wide.height}
        loading={lazy ? 'lazy' : 'eager'}
        decoding="async"
      />
    </picture>
  );
}
