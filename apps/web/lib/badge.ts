/**
 * A status badge for READMEs (shields.io's flat shape): "everycell | WIN 82 · LOSE 0 · 2.92×".
 * Only fixed words and numbers go in, so the SVG needs no escaping of scorecard text. Pure.
 */
import type { Scorecard } from './definitions';
import { formatRatio } from './format';
import { headline } from './headline';
import { countVerdicts } from './prepare';

/** Rough width of Verdana 11px text, as shields.io sizes its badges. */
function textWidth(text: string): number {
  return Math.round(text.length * 6.6 + 10);
}

export function badgeSvg(card: Scorecard): string {
  const counts = countVerdicts(card.rows);
  const summary = headline(card);
  const fails = counts.LOSE > 0 || card.status === 'failed' || card.coverage?.fell === true;
  const left = 'everycell';
  const right = `WIN ${counts.WIN} · LOSE ${counts.LOSE}${summary.geomean === undefined ? '' : ` · ${formatRatio(summary.geomean)}`}`;
  const lw = textWidth(left);
  const rw = textWidth(right);
  const colour = fails ? '#b84a00' : '#007a5a';
  const label = `${left}: ${right}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${label}"><title>${label}</title><rect width="${lw}" height="20" fill="#3d4451"/><rect x="${lw}" width="${rw}" height="20" fill="${colour}"/><g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle"><text x="${lw / 2}" y="14">${left}</text><text x="${lw + rw / 2}" y="14">${right}</text></g></svg>\n`;
}
