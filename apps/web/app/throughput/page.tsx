import type { Metadata } from 'next';
import { ThroughputView } from '@/components/throughput-view';
import { getLatestRun } from '@/lib/data';

export const metadata: Metadata = { title: 'Throughput and scaling' };

export default function ThroughputPage() {
  const latest = getLatestRun();
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
  return <ThroughputView view={latest} />;
}
