import { type ConformanceView, type RestSuiteView, restSuiteShare } from '@/lib/conformance';
import { TableScroll } from './table-scroll';

const integer = new Intl.NumberFormat('en-US');

/**
 * Conformance suites, one block each with its date, its scale (cases) and its passes, and the
 * known differences behind a disclosure. A run shows the suites it recorded; a second suite is
 * one more entry in `suites` (lib/conformance.ts). Elasticsearch's own REST tests, when recorded,
 * follow the project's cases, with their passes by API behind a disclosure.
 */
export function ConformancePanel({
  suites,
  restSuite,
  empty,
  headingLevel = 2,
}: {
  suites: readonly ConformanceView[];
  restSuite?: RestSuiteView;
  /** What to say when there is no suite (a run from before cards carried conformance). */
  empty: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby="conformance-heading" className="conformance" data-conformance>
      <Heading id="conformance-heading" className="section-title">
        Conformance
      </Heading>
      {suites.length === 0 && !restSuite ? <p className="muted">{empty}</p> : null}
      {suites.map((suite) => (
        <div key={suite.id} className="suite" data-suite={suite.id}>
          <p>
            <strong>{suite.title}</strong>, run {suite.measuredAt} against {suite.baseline} ({suite.source}):{' '}
            <strong data-suite-pass>
              {integer.format(suite.candidatePass)} of {integer.format(suite.cases)}
            </strong>{' '}
            cases answered as the baseline does; the baseline passes {integer.format(suite.baselinePass)}.{' '}
            <span className="muted">{suite.about}</span>
          </p>
          {suite.differences.length > 0 ? (
            <details className="differences" data-differences={suite.differences.length}>
              <summary>
                {suite.differences.length} known difference{suite.differences.length === 1 ? '' : 's'}
              </summary>
              <ul>
                {suite.differences.map((difference) => (
                  <li key={`${difference.area}/${difference.name}`}>
                    <strong>{difference.area}</strong>: {difference.name}.{' '}
                    <span className="muted">{difference.reason}</span>
                  </li>
                ))}
              </ul>
            </details>
          ) : (
            <p className="muted">No known differences.</p>
          )}
        </div>
      ))}
      {restSuite ? <RestSuiteBlock suite={restSuite} /> : null}
    </section>
  );
}

const plural = (count: number, word: string) => `${integer.format(count)} ${word}${count === 1 ? '' : 's'}`;

/** Elasticsearch's REST API tests: the passes against the baseline's, then by API and what was left out. */
function RestSuiteBlock({ suite }: { suite: RestSuiteView }) {
  return (
    <div className="suite" data-suite={suite.id}>
      <p>
        <strong>{suite.title}</strong> (<code>{suite.suite}</code>, {plural(suite.tests, 'test')}), run{' '}
        {suite.measuredAt} on both engines ({suite.source}): the candidate passes{' '}
        <strong data-suite-pass>
          {integer.format(suite.candidatePass)} of {integer.format(suite.baselinePass)}
        </strong>{' '}
        tests {suite.baseline} passes ({restSuiteShare(suite)}), and {integer.format(suite.candidateOnly)}{' '}
        that {suite.baseline} fails. {integer.format(suite.skipped)} skipped (a version range or a runner
        feature); {integer.format(suite.leftOut)} left out with their reasons.{' '}
        <span className="muted">
          A test counts against the candidate only where the real baseline passes it.
        </span>
      </p>
      {suite.byApi.length > 0 ? (
        <details className="differences rest-apis" data-apis={suite.byApi.length}>
          <summary>By API: {plural(suite.byApi.length, 'API')}</summary>
          <TableScroll label={`${suite.title} by API`}>
            <table className="rest-table">
              <caption className="visually-hidden">
                {suite.title} by API: tests, {suite.baseline} passes, candidate passes, skipped and left out.
              </caption>
              <thead>
                <tr>
                  <th scope="col">API</th>
                  <th scope="col" className="num">
                    Tests
                  </th>
                  <th scope="col" className="num">
                    {suite.baseline} passes
                  </th>
                  <th scope="col" className="num">
                    Candidate passes
                  </th>
                  <th scope="col" className="num">
                    Skipped
                  </th>
                  <th scope="col" className="num">
                    Left out
                  </th>
                </tr>
              </thead>
              <tbody>
                {suite.byApi.map((api) => (
                  <tr key={api.api} data-api={api.api}>
                    <th scope="row">
                      <code>{api.api}</code>
                    </th>
                    <td className="num">{api.tests}</td>
                    <td className="num">{api.baselinePass}</td>
                    <td className="num" data-candidate-pass>
                      {api.candidatePass}
                    </td>
                    <td className="num">{api.skipped}</td>
                    <td className="num">{api.excluded}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </details>
      ) : null}
      {suite.excluded.length > 0 ? (
        <details className="differences" data-left-out={suite.excluded.length}>
          <summary>
            {plural(suite.excluded.length, 'group')} of APIs left out ({plural(suite.leftOut, 'test')})
          </summary>
          <ul>
            {suite.excluded.map((group) => (
              <li key={group.apis.join(',')}>
                <strong>{group.apis.join(', ')}</strong> ({plural(group.tests, 'test')}).{' '}
                <span className="muted">{group.reason}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
