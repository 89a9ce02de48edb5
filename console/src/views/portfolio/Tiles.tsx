// The book now: one set of tiles per currency (portfolioMetrics, groupBy NONE), and the moment it is as of.
import * as format from '../../format.js';
import { FIGURES, figureText, type MetricsRow, rawValueOf } from './figures.js';

export function Tiles(props: { rows: readonly MetricsRow[] }) {
  const { rows } = props;
  if (rows.length === 0) return <p>The partner has no orders yet: there is nothing to count.</p>;
  return (
    <>
      {rows.map((row) => (
        <div key={row.currency}>
          <p className="as-of">
            As of <time dateTime={new Date(row.asOf * 1000).toISOString()}>{format.time(row.asOf)}</time>
            {rows.length > 1 ? `, in ${row.currency}` : null}
          </p>
          <dl className="tiles" aria-label={`Portfolio figures, ${row.currency}`}>
            {FIGURES.map((figure) => (
              <div
                className="tile"
                key={figure.field}
                data-field={figure.field}
                data-value={rawValueOf(row, figure.field)}
              >
                <dt>{figure.label}</dt>
                <dd>{figureText(row, figure)}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </>
  );
}
