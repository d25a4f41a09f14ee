/** The status badge of one comparable set's newest run. */
import { badgeSvg } from '@/lib/badge';
import { getLatestScorecard, getSets } from '@/lib/data';

type Params = { set: string };

export const dynamic = 'force-static';
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getSets().map((set) => ({ set: set.slug }));
}

export async function GET(_request: Request, { params }: { params: Promise<Params> }): Promise<Response> {
  const latest = getLatestScorecard((await params).set);
  if (!latest) return new Response('no such set', { status: 404 });
  return new Response(badgeSvg(latest.scorecard), { headers: { 'content-type': 'image/svg+xml' } });
}
