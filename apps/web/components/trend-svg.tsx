/**
 * Inlines the SVG vega rendered at build time. It is built only from numbers, dates and verdicts
 * from a closed set (lib/trend-chart.ts), never from scorecard text, and vega escapes its labels.
 */
export function TrendSvg({ svg, label }: { svg: string; label: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: vega's own SVG output, see the comment above.
  return <div className="chart" role="img" aria-label={label} dangerouslySetInnerHTML={{ __html: svg }} />;
}
