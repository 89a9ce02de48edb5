// The book's history (decisions.md 45), on PGlite and Postgres: the worker's snapshot task over the demo
// data set at a fixed clock. Its first run makes every day from the day after each partner's first sale,
// at most PORTFOLIO_BACKFILL_DAYS back, in batches, oldest first; Demo Retail's sandbox clock moved
// forward makes exactly the days passed (each as of 00:00 UTC by its clock), a payment made between them
// shows from the next day on, a run again makes nothing; 10 days missed while no task ran are made by
// the next runs, oldest first. Each snapshot equals portfolioSums at its moment, and its point in the
// graph equals portfolioMetrics asked as of that moment, every field. portfolioHistory
// answers the stored days (DAY, WEEK's Mondays, MONTH's firsts), refuses bad days and windows naming the
// argument, and answers partner keys their own partner only. On Postgres, two instances' runs at once
// make each day once.
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { portfolioSums } from '../../src/modules/book/figures.js';
import { historyPointOf, snapshotsBetween, writeDueSnapshots } from '../../src/modules/book/snapshots.js';
import { onPostgres } from '../support/db.js';
import { type ServiceFixture, useSeededService } from '../support/fixtures.js';

const DAY_MS = 86_400_000;
/** The fixed real time of the seed and the service: a Wednesday, noon UTC. */
const NOW = new Date('2026-12-02T12:00:00.000Z');
const TODAY = '2026-12-02';
const DEMO = '1';
const OTHER = '2';
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const BACKFILL_DAYS = 120;

const fixture: ServiceFixture = useSeededService({ now: NOW });

type GraphqlError = { message: string; extensions: { code: string; argument?: string } };

const dayOf = (day: string, plus = 0) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + plus * DAY_MS).toISOString().slice(0, 10);
/** The days from `first` to `last`, inclusive. */
const daysFrom = (first: string, last: string) => {
  const days: string[] = [];
  for (let day = first; day <= last; day = dayOf(day, 1)) days.push(day);
  return days;
};

/** One run of the task at the fixed real time. */
const run = (maxDays: number, db = fixture.database.db) =>
  writeDueSnapshots(db, { now: NOW, production: false, backfillDays: BACKFILL_DAYS, maxDays });
const daysWritten = (written: Array<{ days: number }>) => written.reduce((sum, partner) => sum + partner.days, 0);

/** Every stored snapshot of a partner: its days in order, and as_of and currency. */
async function stored(partnerId: string) {
  return (await fixture.database
    .db('portfolio_snapshots')
    .where({ partner_id: partnerId })
    .orderBy(['day', 'currency'])
    .select('day', 'currency', 'as_of', 'created_at')) as Array<{
    day: string;
    currency: string;
    as_of: Date;
    created_at: Date;
  }>;
}

async function graphql(headers: Record<string, string>, query: string, variables = {}) {
  const { status, body } = await fixture.service.graphql(query, headers, variables);
  expect(body.errors as GraphqlError[] | undefined, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data as any;
}
async function refusal(headers: Record<string, string>, query: string, variables = {}) {
  const { body } = await fixture.service.graphql(query, headers, variables);
  const errors = body.errors as GraphqlError[] | undefined;
  expect(errors, 'a refusal').toHaveLength(1);
  return errors![0]!;
}

// A few of the metrics' fields (every field is compared with portfolioMetrics' below).
const HISTORY = `query($p: ID!, $from: String!, $to: String!, $interval: PortfolioInterval) {
  portfolioHistory(partnerId: $p, from: $from, to: $to, interval: $interval) {
    day metrics { group currency asOf openOrders } } }`;
const history = (headers: Record<string, string>, variables: Record<string, unknown>) =>
  graphql(headers, HISTORY, variables).then((data) => data.portfolioHistory as any[]);

/** Demo Retail's clock moved to `at`, through the graph. */
const moveClockTo = (at: Date) =>
  graphql(OPERATOR, 'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
    input: { partnerId: DEMO, now: at.getTime() / 1000 },
  });

/** The snapshot of the day equals the figures asked at its 00:00 UTC (the grace is 0 in the demo data). */
async function expectSnapshotEqualsFigures(partnerId: string, day: string) {
  const [point] = (await snapshotsBetween(fixture.database.db, partnerId, { from: day, to: day })).map(historyPointOf);
  const asOf = new Date(`${day}T00:00:00Z`);
  const figures = await portfolioSums(fixture.database.db, { partnerId, asOf, graceHours: 0 }, 'NONE');
  expect(figures).toHaveLength(1);
  expect(point, `${partnerId} ${day}`).toEqual({ day, metrics: figures[0] });
}

describe('the daily snapshots and portfolioHistory', () => {
  it('makes every day from the day after the first sale, at most the backfill back, in batches, oldest first', async () => {
    const batches: number[] = [];
    for (let written = await run(50); daysWritten(written) > 0; written = await run(50))
      batches.push(daysWritten(written));
    // Demo Retail sold 400 days ago: the backfill's 120 days; Other Retail 20 days ago: the 20 since.
    expect(batches).toEqual([50, 50, 40]);
    const demo = await stored(DEMO);
    expect(demo.map((row) => row.day)).toEqual(daysFrom(dayOf(TODAY, -(BACKFILL_DAYS - 1)), TODAY));
    expect(demo.every((row) => row.currency === 'USD')).toBe(true);
    expect(demo.map((row) => row.as_of.toISOString())).toEqual(demo.map((row) => `${row.day}T00:00:00.000Z`));
    // One day per transaction, oldest first: each day's row was committed after the day before's.
    for (let index = 1; index < demo.length; index++)
      expect(demo[index]!.created_at.getTime()).toBeGreaterThan(demo[index - 1]!.created_at.getTime());
    const other = await stored(OTHER);
    expect(other.map((row) => [row.day, row.currency])).toEqual(
      daysFrom(dayOf(TODAY, -19), TODAY).map((day) => [day, 'MXN']),
    );
    expect(await run(50)).toEqual([]);
  });

  it("makes exactly the days Demo Retail's clock moved past, a payment between them counted from the next day", async () => {
    await moveClockTo(new Date(NOW.getTime() + DAY_MS));
    expect(await run(50)).toEqual([{ partnerId: DEMO, days: 1, from: dayOf(TODAY, 1), to: dayOf(TODAY, 1) }]);
    // An instalment paid in the store at the partner's noon of that day.
    const paid = await fixture.service.request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}` +
        `&financeOrderId=${DEMO_ORDER_ID}&amount=18.00&currency=USD`,
      { headers: { 'idempotency-key': 'portfolio-history-1' } },
    );
    expect(paid.status, await paid.clone().text()).toBe(200);
    await moveClockTo(new Date(NOW.getTime() + 3 * DAY_MS));
    expect(await run(50)).toEqual([{ partnerId: DEMO, days: 2, from: dayOf(TODAY, 2), to: dayOf(TODAY, 3) }]);
    expect(await run(50)).toEqual([]);
    const demo = await stored(DEMO);
    expect(demo.at(-1)).toMatchObject({ day: dayOf(TODAY, 3), as_of: new Date(`${dayOf(TODAY, 3)}T00:00:00Z`) });

    const points = (
      await snapshotsBetween(fixture.database.db, DEMO, { from: dayOf(TODAY, 1), to: dayOf(TODAY, 2) })
    ).map(historyPointOf);
    expect(points.map((point) => point.day)).toEqual([dayOf(TODAY, 1), dayOf(TODAY, 2)]);
    expect(points[1]!.metrics.outstandingMinor).toBe(points[0]!.metrics.outstandingMinor - 1800n);
    // Other Retail's clock did not move: nothing of it.
    expect((await stored(OTHER)).at(-1)!.day).toBe(TODAY);
  });

  it('each snapshot equals the figures asked at its 00:00 UTC', async () => {
    for (const day of [
      dayOf(TODAY, -119),
      dayOf(TODAY, -60),
      dayOf(TODAY, -1),
      TODAY,
      dayOf(TODAY, 1),
      dayOf(TODAY, 2),
    ])
      await expectSnapshotEqualsFigures(DEMO, day);
    for (const day of [dayOf(TODAY, -19), TODAY]) await expectSnapshotEqualsFigures(OTHER, day);
  });

  it("answers each day's point as portfolioMetrics answers as of its 00:00 UTC, every field", async () => {
    const fields = `group currency asOf openOrders outstanding par30 par60 par90 collectionRate
      firstPaymentDefaultRate lockedShare writtenOff writeOffRatio`;
    for (const [partnerId, key, days] of [
      [DEMO, 'demo-partner-key', [dayOf(TODAY, -119), dayOf(TODAY, -30), TODAY, dayOf(TODAY, 1), dayOf(TODAY, 2)]],
      [OTHER, 'other-partner-key', [dayOf(TODAY, -19), TODAY]],
    ] as const) {
      const points = await graphql(
        { 'x-api-key': key },
        `query($p: ID!, $from: String!, $to: String!) { portfolioHistory(partnerId: $p, from: $from, to: $to) {
          day metrics { ${fields} } } }`,
        { p: partnerId, from: days[0], to: days.at(-1) },
      );
      for (const day of days) {
        const asOf = Date.parse(`${day}T00:00:00Z`) / 1000;
        const { portfolioMetrics } = await graphql(
          { 'x-api-key': key },
          `query($p: ID!, $asOf: Timestamp!) { portfolioMetrics(partnerId: $p, asOf: $asOf) { ${fields} } }`,
          { p: partnerId, asOf },
        );
        const point = points.portfolioHistory.find((candidate: { day: string }) => candidate.day === day);
        expect(point, day).toBeDefined();
        expect([point.metrics], `${partnerId} ${day}`).toEqual(portfolioMetrics);
      }
    }
  });

  it('catches up 10 days missed while no task ran, oldest first', async () => {
    await moveClockTo(new Date(NOW.getTime() + 13 * DAY_MS));
    // A batch of 4 makes the 4 oldest of the 10; the next batch the 6 left.
    expect(await run(4)).toEqual([{ partnerId: DEMO, days: 4, from: dayOf(TODAY, 4), to: dayOf(TODAY, 7) }]);
    expect(await run(50)).toEqual([{ partnerId: DEMO, days: 6, from: dayOf(TODAY, 8), to: dayOf(TODAY, 13) }]);
    expect((await stored(DEMO)).map((row) => row.day).slice(-10)).toEqual(daysFrom(dayOf(TODAY, 4), dayOf(TODAY, 13)));
  });

  it('answers the stored days of a window: every day, the Mondays, the firsts of the month', async () => {
    const days = await history({ 'x-api-key': 'demo-partner-key' }, { p: DEMO, from: '2026-11-28', to: '2026-12-03' });
    expect(days.map((point) => point.day)).toEqual(daysFrom('2026-11-28', '2026-12-03'));
    expect(days[0]).toEqual({
      day: '2026-11-28',
      metrics: { group: 'all', currency: 'USD', asOf: Date.parse('2026-11-28T00:00:00Z') / 1000, openOrders: 2 },
    });
    // Before the first stored day: only the stored ones.
    const edge = await history(OPERATOR, { p: DEMO, from: '2026-01-01', to: dayOf(TODAY, -(BACKFILL_DAYS - 2)) });
    expect(edge.map((point) => point.day)).toEqual([
      dayOf(TODAY, -(BACKFILL_DAYS - 1)),
      dayOf(TODAY, -(BACKFILL_DAYS - 2)),
    ]);

    const weeks = await history(OPERATOR, { p: DEMO, from: '2026-11-01', to: '2026-12-31', interval: 'WEEK' });
    expect(weeks.map((point) => point.day)).toEqual([
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
      '2026-11-30',
      '2026-12-07',
      '2026-12-14',
    ]);
    const months = await history(OPERATOR, { p: DEMO, from: '2026-01-01', to: '2027-06-30', interval: 'MONTH' });
    expect(months.map((point) => point.day)).toEqual(['2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01']);
    expect(months.map((point) => point.metrics.asOf)).toEqual(
      months.map((point) => Date.parse(`${point.day}T00:00:00Z`) / 1000),
    );
    // A window with no Monday.
    expect(await history(OPERATOR, { p: DEMO, from: '2026-12-01', to: '2026-12-06', interval: 'WEEK' })).toEqual([]);
    // 1,000 days at most: exactly 1,000 answer.
    expect(await history(OPERATOR, { p: OTHER, from: dayOf(TODAY, -999), to: TODAY })).toHaveLength(20);
  });

  it('refuses days not written YYYY-MM-DD, a reversed window and more than 1,000 points, naming the argument', async () => {
    const refused = async (variables: Record<string, unknown>, argument: string) => {
      const error = await refusal(OPERATOR, HISTORY, { p: DEMO, ...variables });
      expect(error.extensions, error.message).toMatchObject({ code: 'INVALID_ARGUMENT', argument });
    };
    await refused({ from: '2026-13-01', to: TODAY }, 'from');
    await refused({ from: '2026-02-30', to: TODAY }, 'from');
    await refused({ from: '2026-2-01', to: TODAY }, 'from');
    await refused({ from: '0000-01-01', to: TODAY }, 'from');
    await refused({ from: TODAY, to: 'today' }, 'to');
    await refused({ from: TODAY, to: dayOf(TODAY, -1) }, 'to');
    await refused({ from: dayOf(TODAY, -1000), to: TODAY }, 'to');
    // About 1,043 Mondays in twenty years; their 240 firsts of a month answer.
    await refused({ from: '2000-01-01', to: '2019-12-31', interval: 'WEEK' }, 'to');
    expect(await history(OPERATOR, { p: DEMO, from: '2000-01-01', to: '2019-12-31', interval: 'MONTH' })).toEqual([]);
  });

  it("answers a partner key its own partner's only, operators any partner; retail and vendor keys never", async () => {
    const window = { from: TODAY, to: TODAY };
    expect(await history({ 'x-api-key': 'other-partner-key' }, { p: OTHER, ...window })).toHaveLength(1);
    for (const key of ['other-partner-key', 'demo-retail-key', 'demo-vendor-key']) {
      const error = await refusal({ 'x-api-key': key }, HISTORY, { p: DEMO, ...window });
      expect(error.extensions.code, key).toBe('FORBIDDEN');
    }
    expect((await refusal(OPERATOR, HISTORY, { p: '999', ...window })).extensions.code).toBe('RESOURCE_NOT_FOUND');
    expect((await refusal(OPERATOR, HISTORY, { p: 'x', ...window })).extensions.code).toBe('RESOURCE_NOT_FOUND');
  });

  it.runIf(onPostgres)('two instances running the task at once make each day once (Postgres)', async () => {
    const second = createDb({ databaseUrl: fixture.database.url!, dataDir: null, poolMax: 4 });
    try {
      const before = { demo: (await stored(DEMO)).length, other: (await stored(OTHER)).length };
      // 30 more days of Demo Retail, and Other Retail's clock moved 30 days too.
      await moveClockTo(new Date(NOW.getTime() + 43 * DAY_MS));
      await graphql(OPERATOR, 'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
        input: { partnerId: OTHER, now: (NOW.getTime() + 30 * DAY_MS) / 1000 },
      });
      const runs = await Promise.all([run(1000), run(1000, second), run(1000), run(1000, second)]);
      // Each day counted by the one run that made it: 60 in all, however the runs shared them.
      expect(runs.map(daysWritten).reduce((sum, days) => sum + days, 0)).toBe(60);
      const demo = await stored(DEMO);
      const other = await stored(OTHER);
      expect(demo.length - before.demo).toBe(30);
      expect(other.length - before.other).toBe(30);
      expect(demo.map((row) => row.day).slice(-30)).toEqual(daysFrom(dayOf(TODAY, 14), dayOf(TODAY, 43)));
      expect(other.map((row) => row.day).slice(-30)).toEqual(daysFrom(dayOf(TODAY, 1), dayOf(TODAY, 30)));
    } finally {
      await second.destroy();
    }
  });
});
