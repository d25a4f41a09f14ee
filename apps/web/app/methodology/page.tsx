import { BENCH_FLAGS } from '@everycell/harness/flags';
import type { Metadata } from 'next';
import { ConformancePanel } from '@/components/conformance-panel';
import { Frozen } from '@/components/frozen';
import { Reproduce } from '@/components/reproduce';
import { RunContext } from '@/components/run-context';
import { TableScroll } from '@/components/table-scroll';
import { type Calibration, calibrationFor } from '@/lib/calibration';
import {
  getCalibrations,
  getLatestModel,
  getLatestScorecard,
  getSuiteConformance,
  getSuiteRestSuite,
} from '@/lib/data';
import type { Scorecard } from '@/lib/definitions';
import { engineName, formatBytes, formatDate, formatMs } from '@/lib/format';
import { benchmarkRules } from '@/lib/methodology';
import { hiddenSettings, publishedSettings } from '@/lib/publish';
import { runHref } from '@/lib/routes';

export const metadata: Metadata = { title: 'Methodology' };

const integer = new Intl.NumberFormat('en-US');
// The bench flag that sets each recorded setting, from the harness's own flag table.
const FLAG = new Map(
  BENCH_FLAGS.flatMap((flag) => (flag.setting ? [[flag.setting as string, `--${flag.name}`]] : [])),
);

function settingText(value: string | number | boolean | string[]): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

export default function MethodologyPage() {
  const latest = getLatestScorecard();
  const model = latest ? getLatestModel(latest.set.slug) : undefined;
  if (!latest || !model) {
    return (
      <section className="empty">
        <h1>Methodology</h1>
        <p>
          This page is generated from the latest run&apos;s manifest, and there is no run yet. Run{' '}
          <code>npm run bench</code> and rebuild the site.
        </p>
      </section>
    );
  }
  const { scorecard } = latest;
  const { manifest } = scorecard;
  const { machine, candidate, baseline, corpus } = manifest;
  const settings = publishedSettings(manifest.settings);
  const hidden = hiddenSettings(manifest.settings);
  // Static: kept as the server wrote it, without hydrating (components/frozen.tsx).
  return (
    <Frozen>
      <article className="methodology">
        <p className="eyebrow">Methodology</p>
        <h1>How the scorecard is measured</h1>
        <RunContext scorecard={scorecard} />
        <p className="lede">
          Generated from the manifest of the latest run,{' '}
          <a href={runHref(scorecard.runId)}>{scorecard.runId}</a> (
          <time dateTime={scorecard.createdAt}>{formatDate(scorecard.createdAt)}</time>).
        </p>

        <section>
          <h2 id="rules" className="section-title">
            The rules
          </h2>
          <ol className="rules">
            {benchmarkRules(manifest).map((rule) => (
              <li key={rule.title}>
                <strong>{rule.title}.</strong> {rule.text}
              </li>
            ))}
          </ol>
        </section>

        <section>
          <h2 id="floor" className="section-title">
            The harness&apos;s own floor
          </h2>
          {scorecard.floor ? (
            <>
              <p>
                Before the engines, the harness measures a null HTTP server on the same machine at{' '}
                {integer.format(scorecard.floor.rate)} requests/s: whatever latency it reports there is the
                harness and the machine, not an engine. A row whose engines both sit within 2× of this p50 is
                marked <em>below resolution</em>.
              </p>
              <TableScroll label="The harness's floor">
                <table className="score-table compact kv-table" data-table="floor">
                  <caption>The null server as the harness saw it in the latest run.</caption>
                  <tbody>
                    <tr>
                      <th scope="row">Latency p50</th>
                      <td>{formatMs(scorecard.floor.p50)}</td>
                    </tr>
                    <tr>
                      <th scope="row">Latency p99</th>
                      <td>{formatMs(scorecard.floor.p99)}</td>
                    </tr>
                    <tr>
                      <th scope="row">Send lag p50</th>
                      <td>{formatMs(scorecard.floor.sendLagP50)}</td>
                    </tr>
                    <tr>
                      <th scope="row">Send lag p99</th>
                      <td>{formatMs(scorecard.floor.sendLagP99)}</td>
                    </tr>
                  </tbody>
                </table>
              </TableScroll>
            </>
          ) : (
            <p>
              The latest run did not record the harness&apos;s floor (a null-server measurement): it was made
              by a harness version from before the floor was measured.
            </p>
          )}
        </section>

        <CalibrationSection card={scorecard} />
        <SuiteSection />
        <Reproduce reproduce={model.reproduce} />

        <section>
          <h2 id="environment" className="section-title">
            Machine, versions and corpus
          </h2>
          <TableScroll label="Machine, versions and corpus">
            <table className="score-table compact kv-table">
              <caption>Where and with what the latest run was measured.</caption>
              <tbody>
                <tr>
                  <th scope="row">CPU</th>
                  <td>
                    {machine.cpuModel}, {machine.cores} cores
                  </td>
                </tr>
                <tr>
                  <th scope="row">Memory</th>
                  <td>{formatBytes(machine.memoryBytes)}</td>
                </tr>
                <tr>
                  <th scope="row">Operating system</th>
                  <td>
                    {machine.platform}, {machine.kernel}
                  </td>
                </tr>
                <tr>
                  <th scope="row">Node.js</th>
                  <td>{manifest.node}</td>
                </tr>
                <tr>
                  <th scope="row">Git revision</th>
                  <td>
                    <code>{manifest.gitRevision}</code>
                  </td>
                </tr>
                {[candidate, baseline].map((engine) => (
                  <tr key={engine.role}>
                    <th scope="row">{engine.role === 'candidate' ? 'Candidate' : 'Baseline'}</th>
                    <td>
                      {engineName(engine)}{' '}
                      <span className="muted">
                        {engine.startedByHarness
                          ? 'started by the harness'
                          : `already running at ${engine.url}`}
                      </span>
                    </td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">Corpus</th>
                  <td>
                    {corpus.name}, {integer.format(corpus.docs)} documents, seed {corpus.seed}, content{' '}
                    <code className="hash">{corpus.contentHash}</code>
                  </td>
                </tr>
              </tbody>
            </table>
          </TableScroll>
        </section>

        <section>
          <h2 id="settings" className="section-title">
            Every setting
          </h2>
          <TableScroll label="Every setting">
            <table className="score-table compact kv-table">
              <caption>
                The harness settings recorded in the manifest, with the bench flag that sets each.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Setting</th>
                  <th scope="col">Value</th>
                  <th scope="col">Flag</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(settings).map(([key, value]) => (
                  <tr key={key} data-setting={key}>
                    <th scope="row">
                      <code>{key}</code>
                    </th>
                    <td>{settingText(value)}</td>
                    <td>
                      {FLAG.has(key) ? <code>{FLAG.get(key)}</code> : <span className="muted">no flag</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          {hidden.length > 0 ? (
            <p className="muted">
              Recorded as a path on the machine that ran it, published relative to the checkout:{' '}
              {hidden.join(', ')}.
            </p>
          ) : null}
        </section>
      </article>
    </Frozen>
  );
}

const runWords = (card: Scorecard) => `${card.runId}, ${integer.format(card.manifest.corpus.docs)} documents`;

const share = (part: number, whole: number) =>
  whole === 0 ? 'no rows' : `${part} of ${whole} (${Math.round((100 * part) / whole)}%)`;

/** The suite as committed now, with every known difference; each run page shows the suite it recorded. */
function SuiteSection() {
  const suite = getSuiteConformance();
  const restSuite = getSuiteRestSuite();
  return (
    <ConformancePanel
      suites={suite ? [suite] : []}
      restSuite={restSuite}
      empty="No conformance summary is committed (packages/engine-napi/conformance/results.json)."
    />
  );
}

/**
 * The calibration that qualifies the latest run: false verdicts of engines against themselves, and
 * power; marked stale when it is older or smaller than the run.
 */
function CalibrationSection({ card }: { card: Scorecard }) {
  const fit = calibrationFor(getCalibrations(), card);
  const c: Calibration | undefined = fit?.calibration;
  return (
    <section>
      <h2 id="calibration" className="section-title">
        Calibration: how far the verdicts can be trusted
      </h2>
      {c ? (
        <>
          <p>
            <code>npm run calibrate</code> runs each engine against a second process of itself (A/A: every WIN
            or LOSE is false) and the candidate against itself with extra engine CPU per request (power: every
            row should come out LOSE). From <code>{c.file}</code> (
            <time dateTime={c.createdAt}>{formatDate(c.createdAt)}</time>, {integer.format(c.settings.docs)}{' '}
            documents of {c.settings.corpus}
            {c.complete
              ? ')'
              : `; stopped before all ${c.runsPlanned.aaPerEngine} planned A/A runs per engine finished)`}
            .
          </p>
          {fit && fit.stale.length > 0 ? (
            <p className="notice" data-stale="true">
              <span className="stale">Stale for the latest run</span> ({runWords(card)}):{' '}
              {fit.stale.join('; ')}. Its rates describe the method on that engine and scale, not this card.
            </p>
          ) : null}
          <TableScroll label="Calibration">
            <table className="score-table compact" data-table="calibration">
              <caption>False verdicts of an engine against itself, and a known slowdown found.</caption>
              <thead>
                <tr>
                  <th scope="col">Check</th>
                  <th scope="col">Runs</th>
                  <th scope="col">By latency</th>
                  <th scope="col">By CPU per request</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(c.aa).map(([engine, a]) => (
                  <tr key={engine}>
                    <th scope="row">A/A {engine}: false WIN or LOSE</th>
                    <td>{a.runs}</td>
                    <td>{share(a.falseWin + a.falseLose, a.comparableRowRuns)}</td>
                    <td>{share(a.falseCpu, a.cpuRowRuns)}</td>
                  </tr>
                ))}
                {c.power ? (
                  <tr>
                    <th scope="row">
                      Power: +{Math.round(c.power.slowdown * 100)}% engine CPU found as LOSE
                    </th>
                    <td>1</td>
                    <td>
                      {share(c.power.latency.detected, c.power.latency.eligible)}{' '}
                      <span className="muted">(rows with p50 at least {c.power.minP50Ms} ms)</span>
                    </td>
                    <td>{share(c.power.cpu.detected, c.power.cpu.eligible)}</td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </TableScroll>
          {c.variance ? (
            <p>
              Spread of a row&apos;s log ratio (median over {c.variance.rows} row-runs): {c.variance.forkSd}{' '}
              between forks, {c.variance.roundSdWithinFork} between rounds inside a fork.
            </p>
          ) : null}
        </>
      ) : (
        <p>
          No calibration is committed yet: <code>npm run calibrate</code> writes one to{' '}
          <code>scorecards/calibration/</code>.
        </p>
      )}
    </section>
  );
}
