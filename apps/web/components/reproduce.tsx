import type { RunModel } from '@/lib/definitions';

/** The same shell command, one flag per line with `\` continuations, so no flag is broken on a phone. */
export function oneFlagPerLine(line: string): string {
  return line.split(/ (?=--[a-z])/).join(' \\\n    ');
}

/**
 * The command that recreates a run, from its manifest, built by the harness's own flag table (the
 * one its CLI parses and --help prints) when the run model was made, so it cannot drift from the
 * CLI. Build machine paths are left out of what is published.
 */
export function Reproduce({ reproduce }: { reproduce: RunModel['reproduce'] }) {
  return (
    <section aria-labelledby="reproduce-heading">
      <h2 id="reproduce-heading" className="section-title">
        How to reproduce this run
      </h2>
      <p>From a clone of the repository, on a machine like the one above:</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long command may scroll; keyboard users must reach it. */}
      <pre className="command" tabIndex={0}>
        <code>{reproduce.lines.map(oneFlagPerLine).join('\n')}</code>
      </pre>
      {reproduce.caveats.length > 0 ? (
        <ul className="caveats">
          {reproduce.caveats.map((caveat) => (
            <li key={caveat}>{caveat}</li>
          ))}
        </ul>
      ) : null}
      {reproduce.fixedSettings.length > 0 ? (
        <p className="muted">
          Recorded values without a flag ({reproduce.fixedSettings.join(', ')}) come from the code and
          lockfile at that revision.
        </p>
      ) : null}
      {reproduce.hidden.length > 0 ? (
        <p className="muted" data-hidden-settings>
          Recorded as a path on the machine that ran it, published relative to the checkout:{' '}
          {reproduce.hidden.join(', ')}.
        </p>
      ) : null}
    </section>
  );
}
