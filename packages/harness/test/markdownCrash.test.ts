import { describe, expect, it } from 'vitest';
import { buildScorecard } from '../src/scorecard/build.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import { crashedRowResult } from '../src/verdict/crashedRowResult.js';
import { sampleCard } from './helpers/card.js';

describe('SCORECARD.md after a crash the run survived', () => {
  it('says the run went on and marks the collapsed side', () => {
    const base = sampleCard();
    const crashed = crashedRowResult(
      { id: 'query.match', group: 'query', family: 'match', title: 'match', unit: 'ms', betterIs: 'lower' },
      {
        candidate:
          'candidate: engine process exited (code null, signal SIGKILL); restarted on the same data (_count 2000)',
      },
    );
    const card = buildScorecard({
      ...base,
      createdAt: new Date(base.createdAt),
      status: 'failed',
      failure: 'candidate: engine process exited (during query.match); restarted',
      rows: [...base.rows, crashed],
    });
    const md = renderMarkdown(card);
    expect(card.exitCode).toBe(2);
    expect(md).toContain(
      '> **This run is failed**: candidate: engine process exited (during query.match); restarted.',
    );
    expect(md).toContain(
      'The run went on after the crash: rows where an engine was down are marked collapsed.',
    );
    expect(md).toMatch(
      /\| `query.match` \| match \| \*\*collapsed\*\* \| [^|]+ \| - \| - \| - \| - \| \*\*LOSE\*\* \| candidate collapsed: candidate: engine process exited/,
    );
  });
});
