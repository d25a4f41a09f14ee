import { RunOverview } from '@/components/run-overview';
import { getLatestRun, scorecardsDir } from '@/lib/data';

export default function LatestRunPage() {
  const latest = getLatestRun();
  if (!latest) {
    return (
      <section className="empty">
        <h1>No runs yet</h1>
        <p>
          No <code>scorecard.json</code> was found under <code>{scorecardsDir()}</code>. Run{' '}
          <code>npm run bench</code> and rebuild the site.
        </p>
      </section>
    );
  }
  return <RunOverview view={latest} label="Latest run" caption="Every row of the latest run." />;
}
