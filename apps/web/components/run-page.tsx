'use client';

import { startTransition, useEffect, useState } from 'react';
import type { RunModel } from '@/lib/definitions';
import { runFileHref, runsHref } from '@/lib/routes';
import { enhanceTables } from '@/lib/table-enhance';
import { RunOverview } from './run-overview';

/** The run id a run page is for: `/runs/<id>/` (its permalink) or `?id=<id>`. */
export function runIdFromLocation(pathname: string, search: string): string | undefined {
  const fromQuery = new URLSearchParams(search).get('id');
  if (fromQuery) return fromQuery;
  const match = /\/runs\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

type State =
  | { kind: 'loading'; runId?: string }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; model: RunModel };

/**
 * A run's page, drawn in the browser from the run's run.json (written by the site build beside
 * the page): one page serves every run, so the build does not grow with the number of runs.
 * Only a set's newest run, the one a search engine should find, is a page of its own (/sets/<slug>/).
 */
export function RunPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    const runId = runIdFromLocation(window.location.pathname, window.location.search);
    if (!runId) {
      setState({ kind: 'error', message: 'No run was named: open a run from the list of runs.' });
      return;
    }
    setState({ kind: 'loading', runId });
    fetch(runFileHref(runId, 'run.json'))
      .then(async (response) => {
        if (!response.ok) throw new Error(`there is no run ${runId} (${response.status})`);
        const model = (await response.json()) as RunModel;
        document.title = `Run ${model.runId} · everycell scorecard`;
        // A transition: React draws the run in slices that yield to the browser, not as one long task.
        startTransition(() => setState({ kind: 'ready', model }));
      })
      .catch((error: Error) => setState({ kind: 'error', message: `No run to show: ${error.message}.` }));
  }, []);
  // The table's controls are wired by the same code static pages load as a script of their own.
  useEffect(() => {
    if (state.kind === 'ready') enhanceTables();
  }, [state]);
  if (state.kind === 'ready') {
    return <RunOverview model={state.model} label="Run" caption={`Every row of run ${state.model.runId}.`} />;
  }
  if (state.kind === 'error') {
    return (
      <section className="empty" data-needs-react="">
        <h1>Run not found</h1>
        <p role="alert">{state.message}</p>
        <p>
          <a href={runsHref()}>Every run</a>
        </p>
      </section>
    );
  }
  return (
    <section className="run-loading" aria-busy="true" data-needs-react="">
      <p className="eyebrow">Run</p>
      <h1>{state.runId ? `Run ${state.runId}` : 'Run'}</h1>
      <p className="muted" role="status">
        Loading the run…
      </p>
    </section>
  );
}
