// The book's background work across instances (decisions.md 45), as separate processes on one Postgres
// database: three api instances and two workers (src/main.ts --role api|worker). Both workers start
// making the demo partners' missed days at once; then Demo Retail's sandbox clock is moved five days
// ahead through one api instance and the workers make those days. Every day of each partner exists
// once, none is missing, and each was made by one worker only: the days the two workers logged as
// written add up to the rows. Report runs asked for through the three api instances are each run once by
// one of the workers: one attempt, one event. Postgres only: the embedded database is one process's.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoEpoch } from '../../src/fixtures/demo.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { type ServiceProcess, startServiceProcess } from '../support/serviceProcess.js';

const DAY_MS = 86_400_000;
const DEMO = '1';
const OTHER = '2';
/** A day `plus` days after `day` (YYYY-MM-DD). */
const dayOf = (day: Date | string | number, plus = 0) =>
  new Date(new Date(day).getTime() + plus * DAY_MS).toISOString().slice(0, 10);
const utcToday = () => dayOf(demoEpoch(new Date()));

describe.runIf(onPostgres)('the book across three api instances and two workers', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let database: TestDatabase;
  let apis: ServiceProcess[];
  let workers: ServiceProcess[];
  /** The UTC day the demo data was sold around (its orders are 400, 100, 40 and 20 days before it). */
  let seeded: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    seeded = utcToday();
    cleanups.push(() => database.destroy());
    const started = await Promise.all([
      ...[0, 1, 2].map(() => startServiceProcess(database.url!, cleanups, { LOG_LEVEL: 'warn' }, ['--role', 'api'])),
      ...[0, 1].map(() => startServiceProcess(database.url!, cleanups, { LOG_LEVEL: 'info' }, ['--role', 'worker'])),
    ]);
    apis = started.slice(0, 3);
    workers = started.slice(3);
  }, 600_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  /** The worker's log lines with this message, parsed. */
  const logged = (worker: ServiceProcess, msg: string) =>
    worker
      .output()
      .split('\n')
      .filter((line) => line.includes(`"msg":"${msg}"`))
      .map((line) => JSON.parse(line));

  /** Each partner's stored days: the first, the latest, how many, and the most rows any (day, currency) has. */
  async function storedDays(partnerId: string) {
    const { rows } = (await database.db.raw(
      `select min(day)::text as first, max(day)::text as latest, count(distinct day)::int as days,
         count(*)::int as rows,
         coalesce((select max(n) from (select count(*)::int as n from portfolio_snapshots
           where partner_id = ? group by day, currency) as per_key), 0) as most
       from portfolio_snapshots where partner_id = ?`,
      [partnerId, partnerId],
    )) as { rows: Array<{ first: string | null; latest: string | null; days: number; rows: number; most: number }> };
    return rows[0]!;
  }
  const daysBetween = (first: string, latest: string) => (Date.parse(latest) - Date.parse(first)) / DAY_MS + 1;
  const loggedDays = () =>
    workers
      .flatMap((worker) => logged(worker, 'portfolio snapshots written'))
      .reduce((sum, line) => sum + line.days, 0);

  it("makes each partner's days once across the two workers, those a sandbox clock moved past too", async () => {
    for (const worker of workers)
      expect(logged(worker, 'role')[0]?.jobs, worker.output()).toContain('portfolio snapshots');

    // The missed days first: from the day after each partner's first sale (Demo Retail's 400 days
    // back, the backfill's limit) to today, made by the workers as they start.
    await vi.waitFor(
      async () => {
        const today = utcToday();
        expect((await storedDays(DEMO)).latest).toBe(today);
        expect((await storedDays(OTHER)).latest).toBe(today);
      },
      { timeout: 300_000, interval: 500 },
    );

    // Demo Retail's clock five days ahead, through one api instance: the workers make its five days
    // within their next look (10 s at most).
    const ahead = Date.now() + 5 * DAY_MS;
    const moved = await fetch(`${apis[1]!.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-operator-key' },
      body: JSON.stringify({
        query: 'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }',
        variables: { input: { partnerId: DEMO, now: Math.floor(ahead / 1000) } },
      }),
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    await vi.waitFor(async () => expect((await storedDays(DEMO)).latest).toBe(dayOf(ahead)), {
      timeout: 300_000,
      interval: 500,
    });

    // Every day once, none missing: each partner's days run from the day after its first sale without a gap.
    const demo = await storedDays(DEMO);
    const other = await storedDays(OTHER);
    // (A day later when midnight UTC passed between the seed and the workers' first look.)
    expect([dayOf(seeded, -399), dayOf(seeded, -398)]).toContain(demo.first);
    expect([dayOf(seeded, -19), dayOf(seeded, -18)]).toContain(other.first);
    for (const days of [demo, other]) {
      expect(days.days).toBe(daysBetween(days.first!, days.latest!));
      // One currency each in the demo data: a row per day.
      expect(days.rows).toBe(days.days);
      expect(days.most).toBe(1);
    }
    // Made once: the days the workers logged as written are the rows, none made by both (the log line
    // follows its batch's commits: waited for).
    await vi.waitFor(
      async () => expect(loggedDays()).toBe((await storedDays(DEMO)).rows + (await storedDays(OTHER)).rows),
      { timeout: 30_000, interval: 200 },
    );
  });

  it('runs each report run asked for through the three api instances once, on one of the two workers', async () => {
    const ask = async (api: ServiceProcess, input: Record<string, unknown>) => {
      const answer = await fetch(`${api.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'demo-operator-key' },
        body: JSON.stringify({
          query: 'mutation($input: CreateReportRunInput!) { createReportRun(input: $input) { id state } }',
          variables: { input },
        }),
      });
      const body = (await answer.json()) as {
        data?: { createReportRun: { id: string; state: string } };
        errors?: unknown;
      };
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      expect(body.data!.createReportRun.state).toBe('PENDING');
      return body.data!.createReportRun.id;
    };
    // The other partner's clock is real time: a window that ended an hour ago.
    const end = Math.floor(Date.now() / 1000) - 3600;
    const ids: string[] = [];
    for (const api of apis) {
      ids.push(await ask(api, { partnerId: OTHER, type: 'AGEING' }));
      ids.push(await ask(api, { partnerId: OTHER, type: 'TRANSACTIONS', start: end - 40 * 86_400, end }));
    }
    await vi.waitFor(
      async () =>
        expect(await database.db('report_runs').whereIn('id', ids).pluck('state')).toEqual(ids.map(() => 'SUCCEEDED')),
      { timeout: 300_000, interval: 500 },
    );
    // Once each: one attempt, one event, whichever worker took it.
    const runs = await database.db('report_runs').whereIn('id', ids).select('id', 'attempts');
    expect(runs.map((run) => run.attempts)).toEqual(ids.map(() => 1));
    const events = await database.db('events').where({ type: 'report_run.succeeded' }).select('data');
    const told = events.map((event) => (event.data as { reportRun: { id: string } }).reportRun.id);
    expect(told.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
  });
});
