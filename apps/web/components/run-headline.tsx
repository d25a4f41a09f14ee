import { restSuiteShare } from '@/lib/conformance';
import type { RunModel } from '@/lib/definitions';
import { formatDate, formatRatio } from '@/lib/format';
import { CPU_RATIO_DEFINITION, claim, type NamedRow } from '@/lib/headline';
import { rowHref, runFileHref } from '@/lib/routes';
import { SetOptions } from './set-options';
import { VerdictBadge } from './verdict-badge';
import { VerdictCounts } from './verdict-counts';

const integer = new Intl.NumberFormat('en-US');

/**
 * A run's first screen, readable on a phone before anything else: who wins and by how much (the
 * read rows' p50 geometric mean), on what (corpus, size, options) and measured where (machine,
 * date, commit), then the verdict counts. The pickers and details come after.
 */
export function RunHeadline({ model, label }: { model: RunModel; label: string }) {
  const { headline } = model;
  const total = model.rows.length;
  return (
    <section className="hero" aria-labelledby="run-heading">
      <p className="eyebrow">
        {label} · <time dateTime={model.createdAt}>{formatDate(model.createdAt)}</time>
      </p>
      <h1 id="run-heading" data-headline="claim">
        {claim(model.candidateProduct, model.baseline, headline.geomean)}
      </h1>
      {headline.geomean !== undefined ? (
        <p className="claim-detail" data-headline="geomean">
          Geometric mean of baseline p50 / candidate p50 over <strong>{headline.readRows} read rows</strong>{' '}
          (queries, aggregations, search features), {formatRatio(headline.geomean)}; {headline.atLeastTwice}{' '}
          at 2× or more.
        </p>
      ) : null}
      <p className="measured-where" data-headline="where">
        On <strong>{model.corpus.name}</strong>, <strong>{integer.format(model.corpus.docs)} docs</strong>,
        against <strong>{model.baseline}</strong>
        {model.baselineNodes ? ` (${model.baselineNodes} nodes)` : ''}; measured on {model.machine.cores}{' '}
        cores, {model.machine.cpuModel}, commit{' '}
        <code title={model.gitRevision}>{model.gitRevision.slice(0, 7)}</code>.
      </p>
      <SetOptions options={model.set.options} />
      <VerdictCounts counts={model.counts} total={total} />
      <p className="run-id">
        Run <code>{model.runId}</code>
        <span className={`gate ${model.gateFails ? 'gate-fail' : 'gate-pass'}`}>
          {model.gateFails ? 'Gate fails' : 'Gate passes'}
        </span>
      </p>
      {model.status !== 'complete' ? (
        <p className="notice" role="status">
          This run is <strong>{model.status}</strong>
          {model.failure ? `: ${model.failure}` : '.'} Rows below are what it measured before it stopped.
        </p>
      ) : null}
    </section>
  );
}

/** Engine CPU per request and the run's own conformance, as numbers. */
export function HeadlineNumbers({ model }: { model: RunModel }) {
  const { headline } = model;
  const suite = model.conformance[0];
  const rest = model.restSuite;
  if (!headline.cpu && !suite && !rest) return null;
  return (
    <dl className="headline-numbers">
      {headline.cpu ? (
        <div data-headline="cpu">
          <dt>Engine CPU per request</dt>
          <dd>
            <span className="big-number">{formatRatio(headline.cpu.geomean)}</span>
            <span className="definition">
              geometric mean over {headline.cpu.rows} read rows of {CPU_RATIO_DEFINITION}.
            </span>
          </dd>
        </div>
      ) : null}
      {suite ? (
        <div data-headline="conformance">
          <dt>Conformance, as this run recorded it</dt>
          <dd>
            <span className="big-number">
              {integer.format(suite.candidatePass)}
              <span className="of"> / {integer.format(suite.cases)}</span>
            </span>
            <span className="definition">
              cases where the candidate answers as {suite.baseline} does (suite run {suite.measuredAt}
              {suite.differences.length > 0
                ? `; ${suite.differences.length} known difference${suite.differences.length === 1 ? '' : 's'}, listed below`
                : ''}
              ).
            </span>
          </dd>
        </div>
      ) : null}
      {rest ? (
        <div data-headline="rest-suite">
          <dt>{rest.title}</dt>
          <dd>
            <span className="big-number">
              {integer.format(rest.candidatePass)}
              <span className="of"> / {integer.format(rest.baselinePass)}</span>
            </span>
            <span className="definition">
              tests passed by the candidate, of the {integer.format(rest.baselinePass)} {rest.baseline} passes
              ({restSuiteShare(rest)}; suite run {rest.measuredAt}, by API below).
            </span>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

const NOT_WIN: readonly { key: 'lose' | 'tie' | 'na'; verdict: 'LOSE' | 'TIE' | 'N/A'; intro: string }[] = [
  { key: 'lose', verdict: 'LOSE', intro: 'The candidate is slower or worse' },
  { key: 'tie', verdict: 'TIE', intro: 'Not established either way' },
  { key: 'na', verdict: 'N/A', intro: 'Not comparable' },
];

/** The rows that are not a WIN, by name, each TIE with why it is one and each N/A with its cause behind a disclosure. */
export function NotWins({ model }: { model: RunModel }) {
  const { headline } = model;
  const groups = NOT_WIN.filter(({ key }) => headline[key].length > 0);
  if (groups.length === 0) return <p className="all-win">Every row is a WIN.</p>;
  return (
    <div className="not-wins">
      {groups.map(({ key, verdict, intro }) => (
        <div key={key} className="not-win" data-not-win={verdict}>
          <p className="not-win-title">
            <VerdictBadge verdict={verdict} /> {intro} ({headline[key].length})
          </p>
          <ul>
            {headline[key].map((row: NamedRow) => (
              <li key={row.id} data-row-id={row.id}>
                <a href={rowHref(model.set.slug, row.id)}>
                  <code>{row.id}</code>
                </a>
                {row.ratio !== undefined ? ` ${formatRatio(row.ratio)}` : ''}
                {row.why ? <span className="tie-why"> — {row.why}</span> : null}
                {verdict === 'N/A' ? (
                  <details className="inline-reason">
                    <summary>why</summary>
                    {row.reason}
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

/** The run's files: the scorecard as published, its markdown report, its rows as CSV, its history tables as Parquet. */
export function Downloads({ runId, files }: { runId: string; files: readonly string[] }) {
  return (
    <p className="downloads">
      Download this run:{' '}
      {files.map((file, index) => (
        <span key={file}>
          {index > 0 ? ' · ' : ''}
          <a href={runFileHref(runId, file)} download>
            {file}
          </a>
        </span>
      ))}
    </p>
  );
}
