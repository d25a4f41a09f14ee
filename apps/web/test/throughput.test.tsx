import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import ThroughputPage from '../app/throughput/page';
import { formatSide } from '../lib/format';
import { ingestScaling, scalingData, sweepViews } from '../lib/throughput';
import { fixturesDir, loadFixtures } from './load-fixtures';

const byDate = () => loadFixtures().sort((a, b) => a.createdAt.localeCompare(b.createdAt));

describe('throughput preparation', () => {
  it('orders the ingest rows by client count and pairs sweeps with their capacity rows', () => {
    const newest = byDate().at(-1);
    if (!newest) throw new Error('no fixtures');
    expect(ingestScaling(newest).map((entry) => entry.clients)).toEqual([1, 2, 4, 8]);
    expect(scalingData(ingestScaling(newest))).toHaveLength(8);
    const views = sweepViews(newest);
    expect(views.map((view) => [view.sweep.family, view.row?.id])).toEqual([
      ['term', 'throughput.term'],
      ['bool', 'throughput.bool'],
      ['terms', 'throughput.terms'],
    ]);
    expect(formatSide({ unit: 'req/s' }, { supported: true, samples: 1, errors: 0, value: 1600 })).toBe(
      '1,600 req/s',
    );
  });
});

describe('the throughput page without the newer fields', () => {
  let dir: string | undefined;
  afterEach(() => {
    delete process.env.EVERYCELL_SCORECARDS;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says the run had no rate sweep and how to get one (oldest fixture: one client count, no sweep)', async () => {
    const [oldest] = byDate();
    if (!oldest) throw new Error('no fixtures');
    dir = mkdtempSync(join(tmpdir(), 'everycell-web-nosweep-'));
    cpSync(join(fixturesDir, oldest.runId), join(dir, oldest.runId), { recursive: true });
    process.env.EVERYCELL_SCORECARDS = dir;
    const html = renderToStaticMarkup(await ThroughputPage());
    expect(html).toContain('This run had no rate sweep.');
    expect(html).toContain('npm run bench -- --help');
    expect(html).toContain('measured ingest with one client count only');
    expect(html).not.toContain('data-chart="sweep"');
  });

  it('renders from the committed real scorecards', async () => {
    process.env.EVERYCELL_SCORECARDS = resolve(fixturesDir, '../../../../scorecards');
    const html = renderToStaticMarkup(await ThroughputPage());
    expect(html).toContain('data-row-id="ingest.1-client"');
  });
});
