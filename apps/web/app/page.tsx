import { FilterableScoreTable } from '@/components/filterable-score-table';
import { RunFacts } from '@/components/run-facts';
import { RunHeadline } from '@/components/run-headline';
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
  const { scorecard, sections } = latest;
  return (
    <>
      <RunHeadline scorecard={scorecard} label="Latest run" />
      <RunFacts scorecard={scorecard} />
      <h2 className="section-title">Rows</h2>
      <FilterableScoreTable sections={sections} caption="Every row of the latest run." />
    </>
  );
}
