import type { Metadata } from 'next';
import { Frozen } from '@/components/frozen';
import { ThroughputView } from '@/components/throughput-view';
import { getLatestScorecard } from '@/lib/data';

export const metadata: Metadata = { title: 'Throughput and scaling' };

export default function ThroughputPage() {
  const latest = getLatestScorecard();
  if (!latest) {
    return (
      <section className="empty">
        <h1>Throughput and scaling</h1>
        <p>
          There is no run yet. Run <code>npm run bench</code> and rebuild the site.
        </p>
      </section>
    );
  }
  return (
    <Frozen>
      <ThroughputView scorecard={latest.scorecard} set={latest.set} />
    </Frozen>
  );
}
