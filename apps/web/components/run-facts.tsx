import type { Scorecard } from '@/lib/definitions';
import { engineName, formatBytes, formatDate, formatDuration, formatMs } from '@/lib/format';

const integer = new Intl.NumberFormat('en-US');
const KEY_SETTINGS = ['rate', 'iterations', 'warmup', 'rounds', 'tieMargin', 'families'];

/** Where, when and with what the run was measured: everything a reader needs to trust the numbers. */
export function RunFacts({ scorecard }: { scorecard: Scorecard }) {
  const { manifest } = scorecard;
  const { machine, candidate, baseline, corpus } = manifest;
  const all = Object.entries(manifest.settings).map(
    ([key, value]) => [key, Array.isArray(value) ? value.join(', ') : String(value)] as const,
  );
  // The knobs that change what a number means; the rest sit behind "all settings".
  const headline = all.filter(([key]) => KEY_SETTINGS.includes(key)).map(([key, value]) => `${key} ${value}`);
  return (
    <dl className="facts">
      <div>
        <dt>Date</dt>
        <dd>
          <time dateTime={scorecard.createdAt}>{formatDate(scorecard.createdAt)}</time>
          <span className="muted"> · took {formatDuration(scorecard.durationMs)}</span>
        </dd>
      </div>
      <div>
        <dt>Candidate</dt>
        <dd>
          {engineName(candidate)}
          <span className="muted">
            {' '}
            · git <code title={manifest.gitRevision}>{manifest.gitRevision.slice(0, 12)}</code>
          </span>
        </dd>
      </div>
      <div>
        <dt>Baseline</dt>
        <dd>{engineName(baseline)}</dd>
      </div>
      <div>
        <dt>Machine</dt>
        <dd>
          {machine.cpuModel}, {machine.cores} cores, {formatBytes(machine.memoryBytes)}
          <span className="muted">
            {' '}
            · {machine.platform} {machine.kernel} · Node {manifest.node}
          </span>
        </dd>
      </div>
      <div>
        <dt>Corpus</dt>
        <dd>
          {corpus.name}, <strong>{integer.format(corpus.docs)}</strong> docs
          <span className="muted">
            {' '}
            · seed {corpus.seed} · {corpus.contentHash}
          </span>
        </dd>
      </div>
      {scorecard.floor ? (
        <div data-fact="floor">
          <dt>Harness floor</dt>
          <dd>
            null server p50 {formatMs(scorecard.floor.p50)} · p99 {formatMs(scorecard.floor.p99)}
            <span className="muted">
              {' '}
              · send lag p50 {formatMs(scorecard.floor.sendLagP50)} · p99{' '}
              {formatMs(scorecard.floor.sendLagP99)} at {integer.format(scorecard.floor.rate)} req/s
            </span>
          </dd>
        </div>
      ) : null}
      {scorecard.coverage ? (
        <div data-fact="coverage">
          <dt>Coverage</dt>
          <dd>
            {scorecard.coverage.fell ? <strong>fell</strong> : 'held'}: {scorecard.coverage.na} N/A (previous
            run {scorecard.coverage.previousNA})
            {scorecard.coverage.missingRows.length > 0
              ? `; missing rows: ${scorecard.coverage.missingRows.join(', ')}`
              : ''}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Settings</dt>
        <dd>
          <span className="settings">{headline.length > 0 ? headline.join(' · ') : 'see all settings'}</span>
          {all.length > 0 ? (
            <details className="all-settings">
              <summary>All {all.length} settings</summary>
              <dl>
                {all.map(([key, value]) => (
                  <div key={key}>
                    <dt>{key}</dt>
                    <dd>{value}</dd>
                  </div>
                ))}
              </dl>
            </details>
          ) : null}
        </dd>
      </div>
    </dl>
  );
}
