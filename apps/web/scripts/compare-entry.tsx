/**
 * The compare page's one script (scripts/export-tidy.ts adds it where it finds `data-compare-app`),
 * bundled with Preact in React's place (build-site.ts aliases react and react-dom to preact/compat):
 * the picker and the comparison are the same components the page was rendered with, for about a
 * tenth of React's bytes and none of Next's runtime or RSC payload.
 */
import { createRoot } from 'react-dom/client';
import { CompareAny, ComparePicker, type PickerSet } from '../components/compare-picker';

const app = document.querySelector<HTMLElement>('[data-compare-app]');
if (app) {
  const sets = JSON.parse(app.dataset.compareSets ?? '[]') as PickerSet[];
  const picker = app.querySelector('[data-compare-picker]');
  if (picker) {
    // The server's markup is the same form: drawn again in place, in the same task (no paint between).
    picker.replaceChildren();
    createRoot(picker).render(<ComparePicker sets={sets} />);
  }
  const view = app.querySelector('[data-compare-view]');
  if (view) createRoot(view).render(<CompareAny sets={sets} />);
}
