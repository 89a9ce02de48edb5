// The book by merchant, device model or month of sale: the same figures, a row per group and currency.
import { useState } from 'react';
import merchantsDocument from '../../../operations/portfolioMerchants.graphql';
import metricsDocument from '../../../operations/portfolioMetrics.graphql';
import type {
  ConsolePortfolioMerchantsQuery,
  ConsolePortfolioMerchantsQueryVariables,
  ConsolePortfolioMetricsQuery,
  ConsolePortfolioMetricsQueryVariables,
  PortfolioGroupBy,
} from '../../__generated__/operations.js';
import { ErrorNote, Loading } from '../../ui.js';
import { useAnswer } from '../../useAnswer.js';
import { FIGURES, figureText, type MetricsRow, rawValueOf } from './figures.js';

const GROUPINGS: ReadonlyArray<{ value: PortfolioGroupBy; option: string; caption: string; column: string }> = [
  { value: 'NONE', option: 'None', caption: '', column: '' },
  { value: 'MERCHANT', option: 'Merchant', caption: 'By merchant', column: 'Merchant' },
  { value: 'DEVICE_MODEL', option: 'Device model', caption: 'By device model', column: 'Device model' },
  { value: 'COHORT_MONTH', option: 'Cohort month', caption: 'By cohort month', column: 'Cohort month' },
];

export function GroupedFigures(props: { partnerId: string }) {
  const [groupBy, setGroupBy] = useState<PortfolioGroupBy>('NONE');
  const grouping = GROUPINGS.find((entry) => entry.value === groupBy)!;
  return (
    <>
      <p>
        <label>
          Group by{' '}
          <select value={groupBy} onChange={(event) => setGroupBy(event.target.value as PortfolioGroupBy)}>
            {GROUPINGS.map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.option}
              </option>
            ))}
          </select>
        </label>
      </p>
      {groupBy === 'NONE' ? null : <GroupTable key={groupBy} partnerId={props.partnerId} grouping={grouping} />}
    </>
  );
}

function GroupTable(props: { partnerId: string; grouping: (typeof GROUPINGS)[number] }) {
  const { partnerId, grouping } = props;
  const metrics = useAnswer<ConsolePortfolioMetricsQuery, ConsolePortfolioMetricsQueryVariables>(metricsDocument, {
    partnerId,
    groupBy: grouping.value,
  });
  const merchants = useAnswer<ConsolePortfolioMerchantsQuery, ConsolePortfolioMerchantsQueryVariables>(
    merchantsDocument,
    grouping.value === 'MERCHANT' ? { partnerId } : null,
  );
  if (metrics.error) return <ErrorNote error={metrics.error} />;
  if (!metrics.data) return <Loading what={`the figures ${grouping.caption.toLowerCase()}`} />;
  // A merchant's group is its id: named once the stores are read (the id alone until then, or if they fail).
  const names = new Map((merchants.data?.partner?.merchants ?? []).map((merchant) => [merchant.id, merchant.name]));
  const groupName = (row: MetricsRow) => {
    const name = names.get(row.group);
    return name ? `${name} (${row.group})` : row.group;
  };
  const rows = metrics.data.portfolioMetrics;
  return (
    <table className="figures-by-group">
      <caption>{grouping.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{grouping.column}</th>
          <th scope="col">Currency</th>
          {FIGURES.map((figure) => (
            <th scope="col" className="number" key={figure.field}>
              {figure.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={FIGURES.length + 2}>No orders to group.</td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={`${row.group}:${row.currency}`}>
              <th scope="row">{groupName(row)}</th>
              <td>{row.currency}</td>
              {FIGURES.map((figure) => (
                <td
                  className="number"
                  key={figure.field}
                  data-field={figure.field}
                  data-value={rawValueOf(row, figure.field)}
                >
                  {figureText(row, figure)}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
