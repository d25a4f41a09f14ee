import { lineHref, setHref } from '@/lib/routes';
import { type ScalingLine, sizeShort } from '@/lib/sets';
import { SetOptions } from './set-options';

/**
 * The comparable sets as links, one line per set of options: a line's sizes (100k → 1M → 10M)
 * measure the same rows with the same options, so they are the sizes that line up. A set's name
 * is its corpus and size; its options are chips. The choice is the URL (`/sets/<slug>/`), and it
 * works without JavaScript. Only runs of one set are ever compared.
 */
export function SetPicker({ lines, current }: { lines: readonly ScalingLine[]; current: string }) {
  const count = lines.reduce((sum, line) => sum + line.sets.length, 0);
  if (count < 2) return null;
  return (
    <nav className="set-picker" aria-labelledby="set-picker-title">
      <h2 id="set-picker-title" className="set-picker-title">
        Other measurements{' '}
        <span className="muted">
          · {count} comparable sets on {lines.length} lines of options
        </span>
      </h2>
      <ul className="lines">
        {lines.map((line) => (
          <li key={line.slug} className="line" data-line={line.slug}>
            <span className="line-name">{line.corpus}</span>
            {line.options.length > 0 ? (
              <SetOptions options={line.options} label={`Options of ${line.corpus}`} />
            ) : (
              <span className="chip chip-default">default rows</span>
            )}
            <span className="line-sizes">
              {line.sets.map((set, index) => (
                <span key={set.slug}>
                  {index > 0 ? (
                    <span aria-hidden="true" className="arrow">
                      {' → '}
                    </span>
                  ) : null}
                  <a
                    href={setHref(set.slug)}
                    aria-current={set.slug === current ? 'page' : undefined}
                    data-set={set.slug}
                  >
                    {sizeShort(set.set.docs)}
                    <span className="visually-hidden"> docs</span>
                    <span className="muted">
                      {' '}
                      · {set.runs.length} run{set.runs.length === 1 ? '' : 's'}
                    </span>
                  </a>
                </span>
              ))}
            </span>
            {line.sets.length > 1 ? (
              <a className="line-compare" href={lineHref(line.slug)} data-line-link={line.slug}>
                {line.name.slice(line.corpus.length + 2)} side by side
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
