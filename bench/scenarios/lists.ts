// The transaction lists, per window: REST in turns with the bare list (bench/baseline-transactions.ts,
// the same statements and bytes), each turn at least five of the window's answers long (a window of
// 10x data answers in seconds); GraphQL answers one page, which has no bare counterpart: no ratio.
// Before the load, one REST request of each window counts its rows and times it (probeWindows).
import { listSizeOf } from '../../src/kernel/listSize.js';
import { buildSchema } from '../../src/pipeline/schema.js';
import type { Scenario } from '../load.js';
import { log, round } from '../log.js';
import type { Bench } from '../services.js';
import type { Window } from '../workload.js';
import { base, graphqlRequest, operation } from './requests.js';

/** A page of Query.transactions, as the SDL bounds it. */
const MAX_PAGE = listSizeOf(buildSchema(), 'Query', 'transactions')!.max;

const transactionsPath = (bench: Bench, window: Window) =>
  `/v1/list-transactions.php?key=${bench.workload.partnerKey}&starttime=${window.start}&endtime=${window.end}`;

export function listScenarios(bench: Bench, windowRows: WindowRows): Scenario[] {
  const transactionsDocument = operation('listTransactions');
  return Object.entries(bench.workload.windows).flatMap(([windowName, window]): Scenario[] => {
    // A whole window per request: fewer connections than the lookups; 2 for 30 days, 1 for 10,000 rows.
    const connections = windowName === '1 day' ? 8 : windowName === '30 days' ? 2 : 1;
    const minTurnSeconds = Math.ceil((5 * (windowRows.probes[windowName]?.ms ?? 0)) / 1000);
    const slug = windowName.replace(/[^0-9a-z]+/gi, '-').replace(/-$/, '');
    const listOptions = (port: number) => ({
      ...base(bench, port, connections),
      requests: [{ method: 'GET' as const, path: transactionsPath(bench, window) }],
    });
    return [
      {
        name: `baseline-list-transactions-${slug}`,
        label: `baseline: express + pg list, ${windowName}`,
        target: 'baseline',
        connections,
        inTurns: true,
        minTurnSeconds,
        options: listOptions,
      },
      {
        name: `rest-list-transactions-${slug}`,
        label: `REST list-transactions, ${windowName}`,
        target: 'service',
        baseline: `baseline-list-transactions-${slug}`,
        connections,
        inTurns: true,
        minTurnSeconds,
        options: listOptions,
      },
      {
        name: `graphql-list-transactions-${slug}`,
        // /graphql answers a page (at most MAX_PAGE rows): a dashboard follows endCursor for the rest.
        label: `GraphQL transactions, first page of ${windowName}`,
        target: 'service',
        connections,
        minTurnSeconds,
        graphql: true,
        options: (port) => ({
          ...base(bench, port, connections),
          requests: [graphqlRequest(bench, transactionsDocument, () => ({ start: window.start, end: window.end }))],
        }),
      },
    ];
  });
}

export interface Probe {
  status: number;
  ms: number;
  rows: number | null;
  body?: string;
}

/** Each window's rows per response, and how its probe went. */
export interface WindowRows {
  rows: Record<string, number>;
  probes: Record<string, Probe>;
}

/**
 * Rows per response of each window, from one REST request of each; a failing window is recorded
 * (and its scenarios still run, counting the failures), the rows then counted in SQL.
 */
export async function probeWindows(bench: Bench): Promise<WindowRows> {
  const { partner, windows } = bench.workload;
  const rows: Record<string, number> = {};
  const probes: Record<string, Probe> = {};
  for (const [windowName, window] of Object.entries(windows)) {
    const at = performance.now();
    const response = await fetch(`http://127.0.0.1:${bench.services.servicePort}${transactionsPath(bench, window)}`);
    const text = await response.text();
    const ms = round(performance.now() - at);
    let listed: unknown;
    try {
      listed = (JSON.parse(text) as { transactions?: unknown }).transactions;
    } catch {
      listed = undefined;
    }
    if (response.ok && Array.isArray(listed)) {
      rows[windowName] = listed.length;
      probes[windowName] = { status: response.status, ms, rows: listed.length };
    } else {
      const counted = (
        await bench.data.raw(
          `select count(*)::int8 as n from transactions where partner_id = ? and occurred_at >= to_timestamp(?) and occurred_at < to_timestamp(?)`,
          [partner, window.start, window.end],
        )
      ).rows[0] as { n: string };
      rows[windowName] = Number(counted.n);
      probes[windowName] = { status: response.status, ms, rows: null, body: text.slice(0, 300) };
      log(
        `list-transactions, ${windowName}: the service answered ${response.status} in ${ms} ms (${rows[windowName]} rows in the window): ${text.slice(0, 200)}`,
      );
    }
  }
  log(
    `windows (partner ${partner}): ${Object.entries(windows)
      .map(([name, w]) => `${name} ${w.start}..${w.end} = ${rows[name]} rows`)
      .join('; ')}`,
  );
  return { rows, probes };
}

/** A scenario's rows per response, where it lists a window's: a GraphQL page holds at most MAX_PAGE of them. */
export function rowsPerResponse(bench: Bench, windowRows: WindowRows, scenario: Scenario): number | undefined {
  const windowName = Object.keys(bench.workload.windows).find((name) => scenario.label.endsWith(name));
  if (!windowName) return undefined;
  return scenario.graphql ? Math.min(windowRows.rows[windowName]!, MAX_PAGE) : windowRows.rows[windowName];
}
