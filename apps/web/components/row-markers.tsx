import { NO_CAVEATS, type RowMarker } from '@/lib/markers';

/** Glyphs are decoration: each marker's word is always written beside it. */
const GLYPH: Record<RowMarker['kind'], string> = {
  collapsed: '✕',
  saturated: '◔',
  'machine-saturated': '◕',
  'service-time': '⧗',
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

/** A row whose p50 and p99 point opposite ways (lib/tails.ts): the word is on screen, the numbers in the title. */
export function TailMarker({ text }: { text: string }) {
  return (
    <span className="markers-inline">
      <span className="marker marker-tail" title={`The candidate ${text}`} data-marker="tail">
        <span aria-hidden="true">⇅</span> p99 disagrees
      </span>
    </span>
  );
}

/** Every marker of a row with its explanation, for the row page. */
export function MarkerList({ markers }: { markers: readonly RowMarker[] }) {
  if (markers.length === 0) return <p className="muted">{NO_CAVEATS}</p>;
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
