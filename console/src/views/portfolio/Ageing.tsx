// The partner's open orders by days past due now (portfolioAgeing): a bar chart of what each bucket owes
// and the same numbers as a table, per currency.

import ageingDocument from '../../../operations/portfolioAgeing.graphql';
import type {
  AgeingBucket,
  ConsolePortfolioAgeingQuery,
  ConsolePortfolioAgeingQueryVariables,
} from '../../__generated__/operations.js';
import { BarChart } from '../../charts/BarChart.js';
import * as format from '../../format.js';
import { ErrorNote, Loading } from '../../ui.js';
import { useAnswer } from '../../useAnswer.js';

type AgeingRow = ConsolePortfolioAgeingQuery['portfolioAgeing'][number];

const BUCKETS: Record<AgeingBucket, { short: string; long: string }> = {
  CURRENT: { short: 'Current', long: 'Current (0 days past due)' },
  DPD_1_30: { short: '1–30', long: '1–30 days past due' },
  DPD_31_60: { short: '31–60', long: '31–60 days past due' },
  DPD_61_90: { short: '61–90', long: '61–90 days past due' },
  DPD_91_180: { short: '91–180', long: '91–180 days past due' },
  DPD_OVER_180: { short: 'Over 180', long: 'Over 180 days past due' },
};

export function Ageing(props: { partnerId: string }) {
  const ageing = useAnswer<ConsolePortfolioAgeingQuery, ConsolePortfolioAgeingQueryVariables>(ageingDocument, {
    partnerId: props.partnerId,
  });
  if (ageing.error) return <ErrorNote error={ageing.error} />;
  if (!ageing.data) return <Loading what="the ageing" />;
  const rows = ageing.data.portfolioAgeing;
  if (rows.length === 0) return <p>No open orders: nothing is past due.</p>;
  return (
    <>
      {rows.map((row) => (
        <AgeingFigure key={row.currency} row={row} suffix={rows.length > 1 ? `, ${row.currency}` : ''} />
      ))}
    </>
  );
}

function AgeingFigure(props: { row: AgeingRow; suffix: string }) {
  const { row, suffix } = props;
  return (
    <figure className="chart-figure">
      <BarChart
        title={`Outstanding by days past due, ${row.currency}, as of ${format.time(row.asOf)}`}
        summary={row.buckets
          .map((bucket) => `${BUCKETS[bucket.bucket].long}: ${format.money(bucket.outstanding, row.currency)}`)
          .join('; ')}
        bars={row.buckets.map((bucket) => ({
          label: BUCKETS[bucket.bucket].short,
          value: format.amountForChart(bucket.outstanding),
          valueLabel: format.money(bucket.outstanding, row.currency),
        }))}
        colour="#0b5cad"
        yTick={(value) => format.count(Math.round(value))}
      />
      <table>
        <caption>
          Ageing
          {suffix}
        </caption>
        <thead>
          <tr>
            <th scope="col">Bucket</th>
            <th scope="col" className="number">
              Orders
            </th>
            <th scope="col" className="number">
              Outstanding
            </th>
          </tr>
        </thead>
        <tbody>
          {row.buckets.map((bucket) => (
            <tr key={bucket.bucket}>
              <th scope="row">{BUCKETS[bucket.bucket].long}</th>
              <td className="number">{format.count(bucket.orders)}</td>
              <td className="number">{format.money(bucket.outstanding, row.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">All open orders</th>
            <td className="number">{format.count(row.orders)}</td>
            <td className="number">{format.money(row.outstanding, row.currency)}</td>
          </tr>
        </tfoot>
      </table>
    </figure>
  );
}
