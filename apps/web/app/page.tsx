import { RatiosFigure } from '@/components/ratios-figure';
import { RunOverview } from '@/components/run-overview';
import { SetPicker } from '@/components/set-picker';
import { findChart, setCharts } from '@/lib/chart-files';
import { getLatestModel, getLatestScorecard, getLines, scorecardsDir } from '@/lib/data';
import { setChartHref } from '@/lib/routes';

export default function LatestRunPage() {
  const latest = getLatestScorecard();
  const model = latest ? getLatestModel(latest.set.slug) : undefined;
  if (!latest || !model) {
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
  const ratios = findChart(setCharts(latest.scorecard), 'ratios.svg')?.chart;
  return (
    <RunOverview
      frozen
      model={model}
      label="Latest run"
      caption="Every row of the latest run."
      picker={<SetPicker lines={getLines()} current={model.set.slug} />}
      ratios={
        ratios ? (
          <RatiosFigure
            chart={ratios}
            href={(file) => setChartHref(model.set.slug, file)}
            levels={model.levels}
          />
        ) : undefined
      }
    />
  );
}
