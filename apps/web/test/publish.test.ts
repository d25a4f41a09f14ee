import { describe, expect, it } from 'vitest';
import { badgeSvg } from '../lib/badge';
import { ratioDefinition } from '../lib/headline';
import {
  csvField,
  hiddenSettings,
  isMachinePath,
  publishedMarkdown,
  publishedPath,
  publishedScorecard,
  rowsCsv,
} from '../lib/publish';
import { loadFixtures } from './load-fixtures';

const cards = loadFixtures().sort((a, b) => a.createdAt.localeCompare(b.createdAt));
const old = cards[0];
const newest = cards.at(-1);
if (!old || !newest) throw new Error('no fixtures');

describe('what the site publishes of a run', () => {
  it('publishes a setting that holds a path of the build machine relative to the checkout, or as words', () => {
    expect(isMachinePath('/home/runner/x')).toBe(true);
    expect(isMachinePath('C:\\runs')).toBe(true);
    expect(isMachinePath('intended send time (open loop)')).toBe(false);
    const published = publishedScorecard(old);
    expect(published.manifest.settings.engineLogs).toBe(`.runs/${old.runId}`);
    expect(JSON.stringify(published)).not.toContain('/home/runner');
    expect(publishedPath('/srv/ci/cache')).toBe('(a folder on the build machine)');
    expect(hiddenSettings(old.manifest.settings)).toEqual(['engineLogs']);
    // Everything else is the file's own content.
    expect(published.rows).toBe(old.rows);
    expect(published.manifest.settings.rate).toBe(old.manifest.settings.rate);
  });

  it('replaces such paths in SCORECARD.md', () => {
    const text = `| engineLogs | ${old.manifest.settings.engineLogs} |\nlogs in /work/main/.runs/x and /tmp/y\n`;
    const clean = publishedMarkdown(text, old);
    expect(clean).not.toMatch(/\/home\/|\/work\/|\/tmp\//);
    expect(clean).toContain(`| engineLogs | .runs/${old.runId} |`);
    expect(clean).toContain('logs in .runs/x and (a folder on the build machine)');
  });

  it('writes one CSV line per row, ratios in the site’s one direction, formulas defused', () => {
    const csv = rowsCsv(newest, ratioDefinition).trimEnd().split('\n');
    expect(csv).toHaveLength(newest.rows.length + 1);
    expect(csv[0]).toMatch(
      /^id,group,family,title,unit,better_is,verdict,ratio,ci_low,ci_high,ratio_meaning/,
    );
    const term = csv.find((line) => line.startsWith('query.term,'));
    expect(term).toContain('baseline p50 / candidate p50: above 1 the candidate is faster');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField(undefined)).toBe('');
  });

  it('draws a status badge from counts and the geometric mean only', () => {
    const svg = badgeSvg(newest);
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain(`WIN ${newest.counts.WIN} · LOSE ${newest.counts.LOSE}`);
    expect(svg).not.toMatch(/<script|<img/);
  });
});
