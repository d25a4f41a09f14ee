import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CostCurve } from '../components/cost-curve';
import { costCurveModel } from '../lib/run-model';
import { loadFixtures } from './load-fixtures';

describe('the cost curve on a run page', () => {
  const [card] = loadFixtures();
  if (!card) throw new Error('no fixtures');

  it('shows each row at every size of the pass set, with how much each side grew', () => {
    const html = renderToStaticMarkup(
      <CostCurve
        curve={costCurveModel({
          costCurve: {
            docs: [100_000, 1_000_000],
            runIds: ['a', 'b'],
            rows: [
              {
                id: 'query.term',
                candidateP50: [0.4, 1],
                baselineP50: [1.2, 6],
                candidateCpuMs: [0.2, null],
                baselineCpuMs: [0.9, 4.5],
              },
            ],
          },
        })}
      />,
    );
    expect(html).toContain('Cost curve');
    expect(html).toContain('100,000, 1,000,000 documents');
    expect(html).toContain('<code>query.term</code>');
    expect(html).toContain('0.400 ms → 1.00 ms (2.50x)');
    expect(html).toContain('1.20 ms → 6.00 ms (5.00x)');
    // A size the row was not measured at has no growth figure.
    expect(html).toContain('0.200 ms → n/a</td>');
  });

  it('says when the sizes ran at different read loads, and only then', () => {
    const withLoads = (loads: { rate: number; iterations: number }[]) =>
      renderToStaticMarkup(
        <CostCurve
          curve={costCurveModel({
            costCurve: {
              docs: [1_000_000, 10_000_000],
              runIds: ['b', 'c'],
              loads,
              rows: [
                {
                  id: 'query.term',
                  candidateP50: [1, 9],
                  baselineP50: [6, 80],
                  candidateCpuMs: [0.5, 4],
                  baselineCpuMs: [4.5, 40],
                },
              ],
            },
          })}
        />,
      );
    const differing = withLoads([
      { rate: 200, iterations: 600 },
      { rate: 50, iterations: 200 },
    ]);
    expect(differing).toContain('(runs b, c)');
    expect(differing).toContain(
      'different read loads (200 req/s with 600 timed requests per row; 50 req/s with 200 timed requests per row)',
    );
    const same = withLoads([
      { rate: 200, iterations: 600 },
      { rate: 200, iterations: 600 },
    ]);
    expect(same).not.toContain('different read loads');
  });

  it('is absent from a run that was not the later pass of a set', () => {
    expect(
      renderToStaticMarkup(<CostCurve curve={costCurveModel({ ...card, costCurve: undefined })} />),
    ).toBe('');
  });
});
