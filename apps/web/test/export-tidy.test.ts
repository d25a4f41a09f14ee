import { describe, expect, it } from 'vitest';
import {
  COMPARE_APP,
  COMPARE_PAIR_SCRIPT,
  NEEDS_REACT,
  PLANNER_APP,
  withoutReact,
} from '../scripts/export-tidy';

const head =
  '<head><link rel="stylesheet" href="/_next/static/css/a.css"/><link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/webpack.js"/><script src="/_next/static/chunks/main-app.js" async=""></script></head>';
const scripts = (enhance: string) => ({
  enhance,
  compare: '/_static/compare-C.js',
  planner: '/_static/planner-P.js',
});
const payload = '<script>self.__next_f.push([1,"a repeat of every row"])</script>';

describe('static pages without React', () => {
  it("drops Next's scripts, their preloads and the RSC payload, and keeps the page and its styles", () => {
    const html = `<html>${head}<body><main><h1>Scorecard</h1><a href="/runs/">Runs</a></main>${payload}</body></html>`;
    const out = withoutReact(html, scripts('/_static/enhance.js'));
    expect(out).not.toContain('<script');
    expect(out).not.toContain('__next_f');
    expect(out).not.toContain('as="script"');
    expect(out).toContain('<link rel="stylesheet" href="/_next/static/css/a.css"/>');
    expect(out).toContain('<main><h1>Scorecard</h1><a href="/runs/">Runs</a></main>');
  });

  it("gives a page with a run table's controls the one deferred script that wires them", () => {
    const html = `<html>${head}<body><form data-table-controls="rows-table" hidden></form>${payload}</body></html>`;
    const out = withoutReact(html, scripts('/base/_static/enhance-X.js'));
    expect(out.match(/<script\b[^>]*>/g)).toEqual(['<script src="/base/_static/enhance-X.js" defer="">']);
    expect(out.indexOf('enhance-X.js')).toBeLessThan(out.indexOf('</head>'));
  });

  it('gives the compare page its own deferred script instead of React', () => {
    const html = `<html>${head}<body><div ${COMPARE_APP}="" data-compare-sets="[]"><form></form></div>${payload}</body></html>`;
    const out = withoutReact(html, scripts('/_static/enhance.js'));
    expect(out.match(/<script\b[^>]*>/g)).toEqual([
      '<script src="/_static/compare-C.js" defer="">',
      '<script>',
    ]);
    expect(out).not.toContain('__next_f');
    // Before the first paint: a pair in the URL hides the index (no layout shift when the comparison lands).
    expect(out).toContain(`<script>${COMPARE_PAIR_SCRIPT}</script></head>`);
  });

  it('gives the throughput page its planner script, and no other page', () => {
    const html = `<html>${head}<body><section ${PLANNER_APP}="" data-planner="{}"></section>${payload}</body></html>`;
    const out = withoutReact(html, scripts('/_static/enhance.js'));
    expect(out.match(/<script\b[^>]*>/g)).toEqual(['<script src="/_static/planner-P.js" defer="">']);
    const plain = withoutReact(
      `<html>${head}<body><main></main></body></html>`,
      scripts('/_static/enhance.js'),
    );
    expect(plain).not.toContain('planner');
  });

  it('leaves a page that needs React as Next wrote it', () => {
    const html = `<html>${head}<body><section ${NEEDS_REACT}="">Loading the run…</section>${payload}</body></html>`;
    expect(withoutReact(html, scripts('/_static/enhance.js'))).toBe(html);
  });
});
