import type { Metadata } from 'next';
import { Frozen } from '@/components/frozen';
import { RunsTable } from '@/components/runs-table';
import { SetOptions } from '@/components/set-options';
import { getRunSummaries, getSets } from '@/lib/data';
import { setHref, setRunsHref } from '@/lib/routes';
import { type RunSet, setLabel } from '@/lib/sets';

export const metadata: Metadata = { title: 'Runs' };

/** "OpenSearch 2.19.1", once (the harness's key writes product and version). */
const baselineOf = (set: RunSet) => set.set.baseline.replace(/(\S+) \1(?=$|,)/, '$1').split(',')[0];

/** Runs listed per set here; the set's history page lists all of them. */
const RUNS_PER_SET = 10;

/** Every comparable set (corpus, size, options, baseline, machine) with its newest runs. */
export default function RunsPage() {
  const summaries = getRunSummaries();
  // Static: kept as the server wrote it, without hydrating (components/frozen.tsx).
  return (
    <Frozen>
      <p className="eyebrow">History</p>
      <h1>Runs</h1>
      <p className="lede">
        Every published run, grouped by what makes runs comparable: corpus, size, row selection, options,
        baseline and machine. Each set has its own verdict history; a run is compared only with runs of its
        set.
      </p>
      {getSets().map((set) => {
        const runs = summaries.filter((run) => run.set === set.slug);
        const shown = runs.slice(0, RUNS_PER_SET);
        return (
          // Named in full: two sets can share a corpus and size and differ only in their options.
          <section
            key={set.slug}
            className="run-set"
            aria-label={`${setLabel(set)}, vs ${baselineOf(set)}, ${set.set.machine}`}
            data-set={set.slug}
          >
            <h2 className="section-title">{set.name}</h2>
            <SetOptions options={set.options} />
            <p className="run-links">
              <a href={setHref(set.slug)}>Latest run of this set</a>
              <a href={setRunsHref(set.slug)}>
                {runs.length > shown.length ? `All ${runs.length} runs` : 'Verdicts over time'}
              </a>
              <span className="muted">
                vs {baselineOf(set)} · {set.set.machine}
              </span>
            </p>
            <RunsTable
              runs={shown}
              label={`Runs of ${setLabel(set)}`}
              caption={
                runs.length > shown.length
                  ? `The newest ${shown.length} of ${runs.length} runs of this set, with their verdict counts.`
                  : 'Every run of this set, newest first, with its verdict counts.'
              }
            />
          </section>
        );
      })}
    </Frozen>
  );
}
