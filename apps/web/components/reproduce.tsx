import { reproduceCommand } from '@everycell/harness/flags';
import type { Scorecard } from '@/lib/definitions';
import { hiddenSettings, publishedSettings } from '@/lib/publish';

/** The same shell command, one flag per line with `\` continuations, so no flag is broken on a phone. */
export function oneFlagPerLine(line: string): string {
  return line.split(/ (?=--[a-z])/).join(' \\\n    ');
}

/**
 * The command that recreates a run, from its manifest, built by the harness's own flag table (the
 * one its CLI parses and --help prints), so it cannot drift from the CLI. Build machine paths are
 * left out of what is published.
 */
export function Reproduce({ scorecard }: { scorecard: Scorecard }) {
  const manifest = { ...scorecard.manifest, settings: publishedSettings(scorecard.manifest.settings) };
  const reproduction = reproduceCommand(manifest);
  const hidden = hiddenSettings(scorecard.manifest.settings);
  return (
    <section aria-labelledby="reproduce-heading">
      <h2 id="reproduce-heading" className="section-title">
        How to reproduce this run
      </h2>
      <p>From a clone of the repository, on a machine like the one above:</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long command may scroll; keyboard users must reach it. */}
      <pre className="command" tabIndex={0}>
        <code>{reproduction.lines.map(oneFlagPerLine).join('\n')}</code>
      </pre>
      {reproduction.caveats.length > 0 ? (
        <ul className="caveats">
          {reproduction.caveats.map((caveat) => (
            <li key={caveat}>{caveat}</li>
          ))}
        </ul>
      ) : null}
      {reproduction.fixedSettings.length > 0 ? (
        <p className="muted">
          Recorded values without a flag ({reproduction.fixedSettings.join(', ')}) come from the code and
          lockfile at that revision.
        </p>
      ) : null}
      {hidden.length > 0 ? (
        <p className="muted" data-hidden-settings>
          Not published: {hidden.join(', ')} (a folder on the build machine).
        </p>
      ) : null}
    </section>
  );
}
