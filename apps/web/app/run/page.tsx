import type { Metadata } from 'next';
import { RunPage } from '@/components/run-page';

export const metadata: Metadata = { title: 'Run' };

/**
 * The page of every run but each set's newest: exported once, then copied by the site build to
 * `/runs/<id>/index.html` beside each run's run.json (scripts/run-files.ts), where it draws the run
 * in the browser. `/run/?id=<id>` opens the same.
 */
export default function RunShellPage() {
  return <RunPage />;
}
