/**
 * The throughput page's planner script (scripts/export-tidy.ts adds it where it finds
 * `data-planner-app`), bundled with Preact in React's place as the compare page's is: the same
 * component the page was rendered with, drawn in place and live as the reader types.
 */
import { createRoot } from 'react-dom/client';
import { CapacityPlanner } from '../components/capacity-planner';
import type { PlannerData } from '../lib/planner';

const app = document.querySelector<HTMLElement>('[data-planner-app]');
const view = app?.querySelector('[data-planner-view]');
if (app && view) {
  const data = JSON.parse(app.dataset.planner ?? 'null') as PlannerData | null;
  if (data) {
    // The server's markup is the same form and table: drawn again in the same task (no paint between).
    view.replaceChildren();
    createRoot(view).render(<CapacityPlanner data={data} />);
  }
}
