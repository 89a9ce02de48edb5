// PAR30, PAR60, PAR90 and the collection rate over the partner's last 90 days (portfolioHistory, a point
// a day): a line chart per currency, and the same numbers as a table beneath it.

import historyDocument from '../../../operations/portfolioHistory.graphql';
import type {
  ConsolePortfolioHistoryQuery,
  ConsolePortfolioHistoryQueryVariables,
} from '../../__generated__/operations.js';
import { LineChart, type LineSeries } from '../../charts/LineChart.js';
import * as format from '../../format.js';
import { ErrorNote, Loading } from '../../ui.js';
import { useAnswer } from '../../useAnswer.js';

type Point = ConsolePortfolioHistoryQuery['portfolioHistory'][number];
type Ratio = 'par30' | 'par60' | 'par90' | 'collectionRate';

const DAYS = 90;
const TABLE_CAPTION = 'PAR and collection rate, last 90 days';

/** Each line's look: dash pattern and colour both differ, so neither alone tells them apart. */
const LINES: ReadonlyArray<{ field: Ratio; label: string; colour: string; dash: string | null }> = [
  { field: 'par30', label: 'PAR30', colour: '#0b5cad', dash: null },
  { field: 'par60', label: 'PAR60', colour: '#a4161a', dash: '8 4' },
  { field: 'par90', label: 'PAR90', colour: '#7a4b00', dash: '2 3' },
  { field: 'collectionRate', label: 'Collection rate', colour: '#1f6f3f', dash: '12 4 2 4' },
];

/** The day `days` before `day` (YYYY-MM-DD, UTC). */
export function daysBefore(day: string, days: number): string {
  const moment = new Date(`${day}T00:00:00Z`);
  moment.setUTCDate(moment.getUTCDate() - days);
  return moment.toISOString().slice(0, 10);
}

/** The points of each currency, oldest first, as the graph gave them. */
function byCurrency(points: readonly Point[]): Map<string, Point[]> {
  const currencies = new Map<string, Point[]>();
  for (const point of points) {
    const list = currencies.get(point.metrics.currency) ?? [];
    list.push(point);
    currencies.set(point.metrics.currency, list);
  }
  return currencies;
}

export function History(props: { partnerId: string; today: string }) {
  const { partnerId, today } = props;
  const history = useAnswer<ConsolePortfolioHistoryQuery, ConsolePortfolioHistoryQueryVariables>(historyDocument, {
    partnerId,
    from: daysBefore(today, DAYS - 1),
    to: today,
  });
  if (history.error) return <ErrorNote error={history.error} />;
  if (!history.data) return <Loading what="the last 90 days" />;
  const currencies = byCurrency(history.data.portfolioHistory);
  if (currencies.size === 0) return <p>No days to show yet.</p>;
  return (
    <>
      {[...currencies].map(([currency, points]) => (
        <HistoryFigure key={currency} points={points} suffix={currencies.size > 1 ? `, ${currency}` : ''} />
      ))}
    </>
  );
}

function HistoryFigure(props: { points: readonly Point[]; suffix: string }) {
  const { points, suffix } = props;
  const series: LineSeries[] = LINES.map((line) => ({
    label: line.label,
    colour: line.colour,
    dash: line.dash,
    values: points.map((point) => format.ratioForChart(point.metrics[line.field])),
  }));
  const last = points[points.length - 1]!;
  const summary = `On ${last.day}: ${LINES.map((line) => `${line.label} ${format.percent(last.metrics[line.field])}`).join(', ')}.`;
  return (
    <figure className="chart-figure">
      <LineChart
        title={`PAR30, PAR60, PAR90 and collection rate, ${points[0]!.day} to ${last.day}${suffix}`}
        summary={summary}
        xLabels={points.map((point) => point.day)}
        series={series}
        yTick={(value) => `${Math.round(value * 100)}%`}
      />
      <details>
        <summary>The numbers</summary>
        <table>
          <caption>
            {TABLE_CAPTION}
            {suffix}
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {LINES.map((line) => (
                <th scope="col" className="number" key={line.field}>
                  {line.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.day}>
                <th scope="row">{point.day}</th>
                {LINES.map((line) => (
                  <td className="number" key={line.field}>
                    {format.percent(point.metrics[line.field])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
