import type { SetOption } from '@/lib/sets';

/** A comparable set's options as chips (kNN, ingest clients, topology): they are not part of its name. */
export function SetOptions({
  options,
  label = 'Options',
}: {
  options: readonly SetOption[];
  label?: string;
}) {
  if (options.length === 0) return null;
  return (
    <ul className="chips" aria-label={label}>
      {options.map((option) => (
        <li key={option.key} className={`chip chip-${option.key}`} data-option={option.key}>
          {option.text}
        </li>
      ))}
    </ul>
  );
}
