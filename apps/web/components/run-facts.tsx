import type { RunModel } from '@/lib/definitions';
import { formatBytes, formatDate, formatDuration, formatMs } from '@/lib/format';
import { methodologyHref } from '@/lib/routes';

const integer = new Intl.NumberFormat('en-US');

/** Where, when and with what the run was measured, and the calibration that qualifies it. */
export function RunFacts({ model }: { model: RunModel }) {
  const { machine, corpus } = model;
  return (
    <dl className="facts">
      <div>
        <dt>Date</dt>
        <dd>
          <time dateTime={model.createdAt}>{formatDate(model.createdAt)}</time>
          <span className="muted"> · took {formatDuration(model.durationMs)}</span>
        </dd>
      </div>
      <div>
        <dt>Candidate</dt>
        <dd>
          {model.candidate}
          <span className="muted">
            {' '}
            · git <code title={model.gitRevision}>{model.gitRevision.slice(0, 12)}</code>
          </span>
        </dd>
      </div>
      <div>
        <dt>Baseline</dt>
        <dd>
          {model.baseline}
          {model.baselineNodes ? ` (${model.baselineNodes} nodes)` : ''}
        </dd>
      </div>
      <div>
        <dt>Machine</dt>
        <dd>
          {machine.cpuModel}, {machine.cores} cores, {formatBytes(machine.memoryBytes)}
          <span className="muted">
            {' '}
            · {machine.platform} {machine.kernel} · Node {model.node}
          </span>
        </dd>
      </div>
      <div>
        <dt>Corpus</dt>
        <dd>
          {corpus.name}, <strong>{integer.format(corpus.docs)}</strong> docs
          <span className="muted">
            {' '}
            · seed {corpus.seed} · <span className="hash">{corpus.contentHash}</span>
          </span>
        </dd>
      </div>
      {model.shards ? (
        <div data-fact="shards">
          <dt>Shards</dt>
          <dd>
            merged from {model.shards.length} shards (<code>npm run merge-cards</code>), each row measured
            whole on one shard, both engines on its machine:{' '}
            {model.shards.map((s, k) => (
              <span key={s.index}>
                {k > 0 ? '; ' : ''}
                {s.index}: {s.rows} rows in {formatDuration(s.durationMs)} on {s.machine}
              </span>
            ))}
          </dd>
        </div>
      ) : null}
      {model.floor ? (
        <div data-fact="floor">
          <dt>Harness floor</dt>
          <dd>
            null server p50 {formatMs(model.floor.p50)} · p99 {formatMs(model.floor.p99)}
            <span className="muted">
              {' '}
              · send lag p50 {formatMs(model.floor.sendLagP50)} · p99 {formatMs(model.floor.sendLagP99)} at{' '}
              {integer.format(model.floor.rate)} req/s
            </span>
          </dd>
        </div>
      ) : null}
      <div data-fact="calibration">
        <dt>Calibration</dt>
        <dd>
          {model.calibration ? (
            <>
              A/A and power check of {model.calibration.scale} (<code>{model.calibration.file}</code>,{' '}
              <a href={`${methodologyHref()}#calibration`}>results</a>)
              {model.calibration.stale.length > 0 ? (
                <>
                  {' '}
                  <span className="stale" data-stale="true">
                    stale for this run
                  </span>
                  : {model.calibration.stale.join('; ')}.
                </>
              ) : (
                '.'
              )}
            </>
          ) : (
            <span className="muted">none committed</span>
          )}
        </dd>
      </div>
      {model.coverage ? (
        <div data-fact="coverage">
          <dt>Coverage</dt>
          <dd>
            {model.coverage.fell ? <strong>fell</strong> : 'held'}: {model.coverage.na} N/A (previous run{' '}
            {model.coverage.previousNA})
            {model.coverage.missingRows.length > 0
              ? `; missing rows: ${model.coverage.missingRows.join(', ')}`
              : ''}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Settings</dt>
        <dd>
          <span className="settings">
            {model.keySettings.length > 0 ? model.keySettings.join(' · ') : 'see all settings'}
          </span>
          {model.settings.length > 0 ? (
            <details className="all-settings">
              <summary>All {model.settings.length} settings</summary>
              <dl>
                {model.settings.map(([key, value]) => (
                  <div key={key} data-setting={key}>
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
