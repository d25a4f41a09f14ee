/**
 * The one-screen overview of a run (after ClickBench's grid): one cell per row, grouped as the
 * table is, coloured by verdict and shaded by how far the ratio is from 1, each cell a link to its
 * row page. Colour is never alone: each cell carries its verdict's glyph and its ratio, and its
 * accessible name says both in words. Pure; the palette's contrast is unit-tested.
 *
 * Shade formula: s = |log2(ratio)|; shade 0 below 0.585 (under 1.5×), 1 below 1 (2×), 2 below 2
 * (4×), 3 below 3.32 (10×), 4 beyond. The same steps either side of 1, so 0.25× is as dark a LOSE
 * as 4× is a WIN.
 */
import type { RowGroup, Verdict } from './definitions';
import { GROUP_ORDER } from './prepare';

export const SHADE_STEPS = [1.5, 2, 4, 10] as const;

/** 0 (near parity) to 4 (ten times or more either way); 0 without a ratio. */
export function shadeOf(ratio: number | undefined): number {
  if (ratio === undefined || !(ratio > 0) || !Number.isFinite(ratio)) return 0;
  const factor = ratio >= 1 ? ratio : 1 / ratio;
  const step = SHADE_STEPS.findIndex((limit) => factor < limit);
  return step === -1 ? SHADE_STEPS.length : step;
}

/** Background and text colour per verdict and shade; every pair meets WCAG AA (4.5:1). */
export const GRID_PALETTE: Record<Verdict, readonly { bg: string; fg: string }[]> = {
  WIN: [
    { bg: '#e3f6ec', fg: '#0b4d33' },
    { bg: '#b9e9cf', fg: '#0b4d33' },
    { bg: '#6fcf9f', fg: '#062e1e' },
    { bg: '#1c7a52', fg: '#ffffff' },
    { bg: '#0b4d33', fg: '#ffffff' },
  ],
  LOSE: [
    { bg: '#fdebdc', fg: '#7a2e08' },
    { bg: '#f9cda8', fg: '#7a2e08' },
    { bg: '#f29a5c', fg: '#3d1603' },
    { bg: '#b34a0f', fg: '#ffffff' },
    { bg: '#7a2e08', fg: '#ffffff' },
  ],
  TIE: [
    { bg: '#f1f2f4', fg: '#374151' },
    { bg: '#e2e5e9', fg: '#1f2937' },
    { bg: '#cdd2d9', fg: '#111827' },
    { bg: '#b6bdc7', fg: '#111827' },
    { bg: '#9aa3af', fg: '#111827' },
  ],
  'N/A': [{ bg: '#fff4d6', fg: '#6b4204' }],
};

export function cellColours(verdict: Verdict, shade: number): { bg: string; fg: string } {
  const shades = GRID_PALETTE[verdict];
  return shades[Math.min(shade, shades.length - 1)] as { bg: string; fg: string };
}

/** "3.6", "12", "0.58": short enough for a 2.5 rem cell. */
export function cellRatioText(ratio: number | undefined): string {
  if (ratio === undefined || !(ratio > 0) || !Number.isFinite(ratio)) return '';
  if (ratio < 1) return ratio.toFixed(2).replace(/^0/, '');
  if (ratio < 10) return ratio.toFixed(1);
  return ratio >= 1000 ? '999+' : String(Math.round(ratio));
}

const SHORT_GROUP: Record<RowGroup, string> = {
  ingest: 'Ingest',
  query: 'Queries',
  metric: 'Metrics',
  bucket: 'Buckets',
  pipeline: 'Pipelines',
  feature: 'Features',
  mixed: 'Under writes',
  knn: 'kNN',
  throughput: 'Capacity',
  disk: 'Disk',
  memory: 'Memory',
};

export interface GridInput {
  id: string;
  title: string;
  group: RowGroup;
  verdict: Verdict;
  ratio?: number;
}

export interface GridCell {
  id: string;
  verdict: Verdict;
  text: string;
  bg: string;
  fg: string;
  /** The link's accessible name: "term on a keyword field (query.term): WIN, ratio 3.60×". */
  label: string;
}

export interface GridGroup {
  group: RowGroup;
  label: string;
  cells: GridCell[];
}

export function overviewGrid(rows: readonly GridInput[]): GridGroup[] {
  return GROUP_ORDER.map((group) => ({
    group,
    label: SHORT_GROUP[group],
    cells: rows
      .filter((row) => row.group === group)
      .map((row): GridCell => {
        const { bg, fg } = cellColours(row.verdict, shadeOf(row.ratio));
        const ratio = row.ratio === undefined ? 'no ratio' : `ratio ${row.ratio.toFixed(2)}×`;
        return {
          id: row.id,
          verdict: row.verdict,
          text: cellRatioText(row.ratio),
          bg,
          fg,
          label: `${row.title} (${row.id}): ${row.verdict}, ${ratio}`,
        };
      }),
  })).filter((group) => group.cells.length > 0);
}

/** WCAG relative luminance of "#rrggbb". */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
