/** The status badge of the newest run, for READMEs: `![scorecard](<site>/badge.svg)`. */
import { badgeSvg } from '@/lib/badge';
import { getLatestScorecard } from '@/lib/data';

export const dynamic = 'force-static';

export function GET(): Response {
  const latest = getLatestScorecard();
  if (!latest) return new Response('no runs', { status: 404 });
  return new Response(badgeSvg(latest.scorecard), { headers: { 'content-type': 'image/svg+xml' } });
}
