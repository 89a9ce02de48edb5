// The portfolio view (decisions.md 46): the partner's book now as tiles, by a grouping as a table, its
// last 90 days as lines and its ageing as bars, each chart with its numbers as a table. Read afresh
// each time the view opens (no cache), with the session's key, for the session's partner.

import metricsDocument from '../../operations/portfolioMetrics.graphql';
import type {
  ConsolePortfolioMetricsQuery,
  ConsolePortfolioMetricsQueryVariables,
} from '../__generated__/operations.js';
import * as format from '../format.js';
import { useSession } from '../session.js';
import { ErrorNote, Loading, View } from '../ui.js';
import { useAnswer } from '../useAnswer.js';
import { Ageing } from './portfolio/Ageing.js';
import { GroupedFigures } from './portfolio/GroupedFigures.js';
import { History } from './portfolio/History.js';
import { Tiles } from './portfolio/Tiles.js';

export function Portfolio() {
  const { partner } = useSession();
  return <View title="Portfolio">{partner ? <Book partnerId={partner.id} /> : null}</View>;
}

function Book(props: { partnerId: string }) {
  const { partnerId } = props;
  const now = useAnswer<ConsolePortfolioMetricsQuery, ConsolePortfolioMetricsQueryVariables>(metricsDocument, {
    partnerId,
    groupBy: 'NONE',
  });
  const rows = now.data?.portfolioMetrics ?? [];
  // The partner's today is the day of its latest figures: a sandbox clock may put it ahead of the real one.
  const latest = rows.reduce<number | null>((max, row) => (max === null || row.asOf > max ? row.asOf : max), null);
  return (
    <>
      <h2>Now</h2>
      {now.error ? <ErrorNote error={now.error} /> : null}
      {now.loading && !now.data ? <Loading what="the portfolio's figures" /> : null}
      {now.data ? <Tiles rows={rows} /> : null}
      <h2>By group</h2>
      <GroupedFigures partnerId={partnerId} />
      <h2>PAR and collection rate, last 90 days</h2>
      {latest !== null ? (
        <History partnerId={partnerId} today={format.day(latest)} />
      ) : now.data ? (
        <p>No figures yet, so no days to show.</p>
      ) : null}
      <h2>Ageing</h2>
      <Ageing partnerId={partnerId} />
    </>
  );
}
