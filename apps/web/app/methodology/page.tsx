import { BENCH_FLAGS } from '@everycell/harness/flags';
import type { Metadata } from 'next';
import { Reproduce } from '@/components/reproduce';
import { RunContext } from '@/components/run-context';
import { TableScroll } from '@/components/table-scroll';
import { getLatestRun } from '@/lib/data';
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
  const latest = getLatestRun();
  if (!latest) {
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
  return (
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
            The latest run did not record the harness&apos;s floor (a null-server measurement): it was made by
            a harness version from before the floor was measured.
          </p>
        )}
      </section>

      <Reproduce scorecard={scorecard} />

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
          <p className="muted">Not published: {hidden.join(', ')} (a folder on the build machine).</p>
        ) : null}
      </section>
    </article>
  );
}
