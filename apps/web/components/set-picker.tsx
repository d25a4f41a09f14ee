import { setHref } from '@/lib/routes';
import { type RunSet, setLabel } from '@/lib/sets';

/**
 * The comparable sets (corpus, size, baseline, machine) as links: the choice is the URL
 * (`/sets/<slug>/`), and it works without JavaScript. Only runs of one set are ever compared.
 */
export function SetPicker({ sets, current }: { sets: readonly RunSet[]; current: string }) {
  if (sets.length < 2) return null;
  return (
    <nav className="set-picker" aria-label="Comparable runs">
      <p className="set-picker-title">Comparable runs: corpus, size and baseline</p>
      <ul>
        {sets.map((set) => (
          <li key={set.slug}>
            <a
              href={setHref(set.slug)}
              aria-current={set.slug === current ? 'page' : undefined}
              data-set={set.slug}
            >
              {setLabel(set.set)}
              <span className="muted">
                {' '}
                · {set.runs.length} run{set.runs.length === 1 ? '' : 's'}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
