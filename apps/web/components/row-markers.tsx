import type { RowMarker } from '@/lib/markers';

/** Glyphs are decoration: each marker's word is always written beside it. */
const GLYPH: Record<RowMarker['kind'], string> = {
  collapsed: '✕',
  saturated: '◔',
  cache: '↺',
  'below-resolution': '≈',
  remeasured: '↻',
  flaky: '↯',
  waived: '✓',
  'waiver-expired': '!',
};

/** Short labels beside a row's name in the run table; the full sentence is the title. */
export function InlineMarkers({ markers }: { markers: readonly RowMarker[] }) {
  if (markers.length === 0) return null;
  return (
    <span className="markers-inline">
      {markers.map((marker) => (
        <span
          key={marker.kind}
          className={`marker marker-${marker.kind}`}
          title={marker.detail}
          data-marker={marker.kind}
        >
          <span aria-hidden="true">{GLYPH[marker.kind]}</span> {marker.label}
        </span>
      ))}
    </span>
  );
}

/** Every marker of a row with its explanation, for the row page. */
export function MarkerList({ markers }: { markers: readonly RowMarker[] }) {
  if (markers.length === 0) {
    return (
      <p className="muted">No caveats: neither engine collapsed or saturated, and the verdict was steady.</p>
    );
  }
  return (
    <ul className="marker-list">
      {markers.map((marker) => (
        <li key={marker.kind} data-marker={marker.kind}>
          <span className={`marker marker-${marker.kind}`}>
            <span aria-hidden="true">{GLYPH[marker.kind]}</span> {marker.label}
          </span>{' '}
          {marker.detail}
        </li>
      ))}
    </ul>
  );
}
