import type { RowResult, SideMeasurement } from '@/lib/definitions';
import { formatMs } from '@/lib/format';
import { TableScroll } from './table-scroll';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const rate = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

type Stat = { label: string; value: (side: SideMeasurement) => string | undefined };

const ms = (value: number | undefined) => (value === undefined ? undefined : formatMs(value));

/** Rows shown only when either side has the number: older scorecards lack p99.9 and the rest. */
const STATS: Stat[] = [
  { label: 'Timed samples', value: (s) => integer.format(s.samples) },
  { label: 'p50', value: (s) => ms(s.p50) },
  { label: 'p99', value: (s) => ms(s.p99) },
  { label: 'p99.9', value: (s) => ms(s.p999) },
  { label: 'Service time p50', value: (s) => ms(s.serviceP50) },
  {
    label: 'Achieved rate',
    value: (s) => (s.achievedRate === undefined ? undefined : `${rate.format(s.achievedRate)} req/s`),
  },
  { label: 'Failed requests', value: (s) => integer.format(s.errors) },
  {
    label: 'Dropped (in-flight cap)',
    value: (s) => (s.dropped === undefined ? undefined : integer.format(s.dropped)),
  },
  { label: 'Send lag p99', value: (s) => ms(s.sendLagP99) },
];

/** Both engines' numbers for one row, side by side. */
export function SideStats({ row }: { row: RowResult }) {
  const stats = STATS.filter(
    (stat) => stat.value(row.candidate) !== undefined || stat.value(row.baseline) !== undefined,
  );
  if (row.unit !== 'ms' || stats.length === 0) return null;
  return (
    <TableScroll label="Both engines' latency numbers">
      <table className="score-table compact side-stats">
        <caption>Both engines&apos; numbers for this row (latency from the intended send time).</caption>
        <thead>
          <tr>
            <th scope="col">Measure</th>
            <th scope="col" className="num">
              Candidate
            </th>
            <th scope="col" className="num">
              Baseline
            </th>
          </tr>
        </thead>
        <tbody>
          {stats.map((stat) => (
            <tr key={stat.label} data-stat={stat.label}>
              <th scope="row">{stat.label}</th>
              <td className="num">{stat.value(row.candidate) ?? '—'}</td>
              <td className="num">{stat.value(row.baseline) ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
