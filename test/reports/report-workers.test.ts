// The report workers' claim (docs/decisions.md 45): on Postgres, two job loops on pools of their own,
// woken by the runs' notifications, run each of a dozen runs exactly once (one attempt, one event); on
// both backends, a run whose lease lapsed is taken again from the start (the dead attempt's chunk
// dropped, nothing it writes afterwards kept) and, after 3 attempts, FAILED; a worker that stops puts
// its run back to wait; the claim, partner by partner, takes the oldest run first within each partner's
// bound, and goes on to the next partner when one's runs are row-locked.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { type JobLoop, startJobLoop } from '../../src/jobs/loop.js';
import { reportRunsTask } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { claimReportRun, lockOwnedRun, writeChunk } from '../../src/modules/reports/claim.js';
import type { ReportRunRow } from '../../src/modules/reports/rows.js';
import { runNextReport } from '../../src/modules/reports/run.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { CREATE_REPORT_RUN, graphqlData, OPERATOR, PARTNER, REPORT_RUN, reportWorker } from '../support/reports.js';

const fixture = useSeededService();
const db = () => fixture.database.db;
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

let worker: Awaited<ReturnType<typeof reportWorker>>;
beforeAll(async () => {
  worker = await reportWorker(db());
});
afterAll(async () => {
  await worker?.close();
});

const create = (headers: Record<string, string>, input: Record<string, unknown>) =>
  graphqlData(fixture.service, headers, CREATE_REPORT_RUN, { input }).then((data) => data.createReportRun);
const transactionsRun = (partnerId: string, headers = PARTNER) =>
  create(headers, { partnerId, type: 'TRANSACTIONS', start: now() - 90 * DAY, end: now() - 60 });

describe('two workers', () => {
  it.runIf(onPostgres)('run each run exactly once, woken when it is asked for', async () => {
    const pools: Db[] = [];
    const loops: JobLoop[] = [];
    const workers: Array<Awaited<ReturnType<typeof reportWorker>>> = [];
    try {
      for (let i = 0; i < 2; i++) {
        const pool = createDb({ databaseUrl: fixture.database.url, dataDir: null, poolMax: 3 });
        const own = await reportWorker(pool);
        pools.push(pool);
        workers.push(own);
        // A poll of a minute: a run is taken this soon only because its notification woke a loop.
        loops.push(
          startJobLoop({
            db: pool,
            logger: createLogger('silent'),
            tasks: [reportRunsTask(own.deps, { pollMs: 60_000 })],
          }),
        );
      }
      // Both loops listening before the runs are asked for.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        ids.push((await transactionsRun('1')).id);
        ids.push((await transactionsRun('2', { 'x-api-key': 'other-partner-key' })).id);
      }
      await vi.waitFor(
        async () => {
          const states = await db()('report_runs').whereIn('id', ids).pluck('state');
          expect(states.filter((state) => state === 'SUCCEEDED')).toHaveLength(ids.length);
        },
        { timeout: 60_000, interval: 100 },
      );
      const runs = await db()('report_runs').whereIn('id', ids).select('id', 'attempts');
      expect(runs.map((run) => run.attempts)).toEqual(ids.map(() => 1));
      const events = await db()('events').where({ type: 'report_run.succeeded' }).select('data');
      const eventIds = events.map(
        (event) => (typeof event.data === 'string' ? JSON.parse(event.data) : event.data).reportRun.id,
      );
      expect(eventIds.filter((id: string) => ids.includes(id)).sort()).toEqual([...ids].sort());
    } finally {
      for (const loop of loops) await loop.stop();
      for (const own of workers) await own.close();
      for (const pool of pools) await pool.destroy();
    }
  });
});

describe('a worker that stops', () => {
  it('puts the run under way back to wait, its attempt not counted and nothing of its file kept', async () => {
    const { id } = await transactionsRun('1');
    const stopped = await reportWorker(db(), { signal: AbortSignal.abort() });
    try {
      expect(await runNextReport(stopped.deps)).toBe(1);
    } finally {
      await stopped.close();
    }
    const run = await db()('report_runs').where({ id }).first();
    expect(run).toMatchObject({ state: 'PENDING', attempts: 0, started_at: null, claimed_until: null });
    expect(await db()('report_file_chunks').where({ run_id: id })).toHaveLength(0);
    await worker.drain();
    expect((await db()('report_runs').where({ id }).first()).state).toBe('SUCCEEDED');
  });
});

describe('a lapsed lease', () => {
  const lapse = (run: Pick<ReportRunRow, 'id'>, attempts?: number) =>
    db()('report_runs')
      .where({ id: run.id })
      .update({ claimed_until: new Date(Date.now() - 1000), ...(attempts === undefined ? {} : { attempts }) });

  it('is taken again from the start: the dead attempt writes nothing more, the file is whole', async () => {
    const { id } = await transactionsRun('1');
    const claimed = await claimReportRun(db(), { perPartner: 2, leaseMs: 60_000 }, async () => undefined);
    const dead = claimed!.run;
    expect(dead).toMatchObject({ id, state: 'RUNNING', attempts: 1 });
    expect(await writeChunk(db(), dead, 0, Buffer.from('half a file'), 60_000)).toBe(true);
    await lapse(dead);
    await worker.drain();
    const run = (await graphqlData(fixture.service, PARTNER, REPORT_RUN, { id })).reportRun;
    expect(run.state).toBe('SUCCEEDED');
    expect((await db()('report_runs').where({ id }).first()).attempts).toBe(2);
    // The first attempt, woken, is no longer the run's: its writes and its end are refused.
    expect(await writeChunk(db(), dead, 99, Buffer.from('late'), 60_000)).toBe(false);
    expect(await db().transaction((trx) => lockOwnedRun(trx, dead))).toBeUndefined();
    const file = await fixture.service.request(`/reports/v1/files/${id}`, {
      headers: { authorization: 'Bearer demo-partner-key' },
    });
    const text = await file.text();
    expect(text.startsWith('type,time,amount,currency,')).toBe(true);
    expect(text.split('\r\n').length - 2).toBe(run.rowCount);
    expect(Buffer.byteLength(text)).toBe(run.byteSize);
  });

  it('after 3 attempts fails the run instead, with its reason and event', async () => {
    const { id } = await create(OPERATOR, { partnerId: '1', type: 'AGEING' });
    const claimed = await claimReportRun(db(), { perPartner: 2, leaseMs: 60_000 }, async () => undefined);
    expect(claimed!.run.id).toBe(id);
    await lapse(claimed!.run, 3);
    await worker.drain();
    const run = (await graphqlData(fixture.service, PARTNER, REPORT_RUN, { id })).reportRun;
    expect(run.state).toBe('FAILED');
    expect(run.failureReason).toMatch(/^INTERNAL_SERVER_ERROR: the run was started 3 times/);
    expect((await db()('report_runs').where({ id }).first()).attempts).toBe(3);
    const events = await db()('events').where({ type: 'report_run.failed' }).select('data');
    expect(
      events.map((event) => (typeof event.data === 'string' ? JSON.parse(event.data) : event.data).reportRun.id),
    ).toContain(id);
  });
});

describe('the claim across partners', () => {
  const settings = (perPartner: number) => ({ perPartner, leaseMs: 60_000 });
  const claim = (perPartner: number) => claimReportRun(db(), settings(perPartner), async () => undefined);
  const ageing = (partnerId: string) => create(OPERATOR, { partnerId, type: 'AGEING' }).then((run) => run.id);
  /** The claimed runs let lapse and run to their end by the suite's worker, as a dead worker's would be. */
  const finish = async (ids: string[]) => {
    await db()('report_runs')
      .whereIn('id', ids)
      .where({ state: 'RUNNING' })
      .update({ claimed_until: new Date(Date.now() - 1000) });
    await worker.drain();
    expect(await db()('report_runs').whereIn('id', ids).pluck('state')).toEqual(ids.map(() => 'SUCCEEDED'));
  };

  it("takes the oldest run first, partner by partner, each partner's bound kept", async () => {
    const ids = [await ageing('1'), await ageing('2'), await ageing('1')];
    expect((await claim(1))?.run.id).toBe(ids[0]);
    // Partner 1 is at its bound: its second run waits, partner 2's younger one goes first.
    expect((await claim(1))?.run.id).toBe(ids[1]);
    expect(await claim(1)).toBeNull();
    expect((await claim(2))?.run.id).toBe(ids[2]);
    await finish(ids);
  });

  it.runIf(onPostgres)("goes on to the next partner when a partner's runs are row-locked", async () => {
    const ids = [await ageing('1'), await ageing('2')];
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another transaction holds partner 1's run, as a lapsed attempt's worker ending it would.
    const holder = db().transaction(async (trx) => {
      await trx('report_runs').where({ partner_id: '1', id: ids[0] }).forUpdate().first();
      locked();
      await released;
    });
    try {
      await isLocked;
      expect((await claim(2))?.run.id).toBe(ids[1]);
    } finally {
      release();
      await holder;
    }
    expect((await claim(2))?.run.id).toBe(ids[0]);
    await finish(ids);
  });
});
