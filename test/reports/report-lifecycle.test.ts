// A report run's life through the service (docs/decisions.md 45), on PGlite and Postgres: an AGEING run
// ends in report_run.succeeded, heard by a subscriber and delivered signed to a STANDARD endpoint; a PORTFOLIO_HISTORY file from
// stored snapshots with their ratios; a run that fails ends FAILED with a reason, its event and no file;
// the runs newest first, a partner's own only; files past retention deleted (410), the run kept; the
// per-partner bound of runs under way and of runs waiting.
import { createClient } from 'graphql-ws';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { AGEING_COLUMNS, HISTORY_COLUMNS } from '../../src/modules/reports/bookFiles.js';
import { claimReportRun } from '../../src/modules/reports/claim.js';
import { deleteExpiredFiles } from '../../src/modules/reports/queries.js';
import { deliveryMetrics } from '../../src/ops/metrics.js';
import { useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import {
  CREATE_REPORT_RUN,
  graphqlData,
  graphqlRefusal,
  OPERATOR,
  PARTNER,
  REPORT_RUN,
  reportWorker,
} from '../support/reports.js';

const fixture = useSeededService();
const db = () => fixture.database.db;
const DAY = 86_400;
const DEMO_PARTNER = '1';
const now = () => Math.floor(Date.now() / 1000);

let receiver: Receiver;
let webhooks: JobLoop | undefined;
let worker: Awaited<ReturnType<typeof reportWorker>>;
beforeAll(async () => {
  receiver = await startReceiver();
  worker = await reportWorker(db());
});
afterAll(async () => {
  await webhooks?.stop();
  await worker?.close();
  await receiver?.close();
});

const create = (headers: Record<string, string>, input: Record<string, unknown>) =>
  graphqlData(fixture.service, headers, CREATE_REPORT_RUN, { input }).then((data) => data.createReportRun);
const readRun = (headers: Record<string, string>, id: string) =>
  graphqlData(fixture.service, headers, REPORT_RUN, { id }).then((data) => data.reportRun);
const fileOf = async (id: string) => {
  const response = await fixture.service.request(`/reports/v1/files/${id}`, {
    headers: { authorization: 'Bearer demo-partner-key' },
  });
  return { status: response.status, text: await response.text() };
};
const records = (text: string) =>
  text
    .split('\r\n')
    .slice(0, -1)
    .map((line) => line.split(','));

describe('an AGEING run', () => {
  it('ends SUCCEEDED, every open order with its bucket, and report_run.succeeded reaches a STANDARD endpoint signed', async () => {
    const created = await graphqlData(
      fixture.service,
      PARTNER,
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }`,
      { input: { url: receiver.url('/book'), eventTypes: ['REPORT_RUN_SUCCEEDED', 'REPORT_RUN_FAILED'] } },
    );
    webhooks = startWebhookJobs({
      db: db(),
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      observe: deliveryMetrics,
      settings: { scheduleMs: [30], jitter: 0, pollMs: 20, timeoutMs: 2000 },
    });
    // A subscriber to the run's events, listening before it is asked for.
    const heard: any[] = [];
    const before = fixture.service.listeningSubscribers();
    const subscriber = createClient({
      url: `${fixture.service.baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { 'X-Api-Key': 'demo-partner-key' },
      retryAttempts: 0,
    });
    subscriber.subscribe(
      { query: 'subscription { events(types: [REPORT_RUN_SUCCEEDED]) { type data } }' },
      { next: ({ data }) => heard.push((data as any).events), error: () => undefined, complete: () => undefined },
    );
    await vi.waitFor(() => expect(fixture.service.listeningSubscribers()).toBeGreaterThan(before));
    const run = await create(PARTNER, { partnerId: DEMO_PARTNER, type: 'AGEING' });
    await worker.drain();
    try {
      await vi.waitFor(() => expect(heard.map((event) => event.data.reportRun.id)).toEqual([run.id]), {
        timeout: 10_000,
        interval: 20,
      });
      expect(heard[0].type).toBe('REPORT_RUN_SUCCEEDED');
    } finally {
      await subscriber.dispose();
    }
    const ended = await readRun(PARTNER, run.id);
    expect(ended).toMatchObject({ state: 'SUCCEEDED', failureReason: null });
    const file = await fileOf(run.id);
    expect(file.status).toBe(200);
    const [header, ...rows] = records(file.text);
    expect(header).toEqual([...AGEING_COLUMNS]);
    expect(rows.length).toBe(ended.rowCount);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const days = Number(row[5]);
      expect(row[6], row.join()).toBe(
        days === 0
          ? 'CURRENT'
          : days <= 30
            ? 'DPD_1_30'
            : days <= 60
              ? 'DPD_31_60'
              : days <= 90
                ? 'DPD_61_90'
                : days <= 180
                  ? 'DPD_91_180'
                  : 'DPD_OVER_180',
      );
    }
    const verifier = new Webhook(created.createWebhookEndpoint.secret);
    await vi.waitFor(() => expect(receiver.received.filter((post) => post.path === '/book')).toHaveLength(1), {
      timeout: 10_000,
      interval: 20,
    });
    const post = receiver.received.find((request) => request.path === '/book')!;
    const body = verifier.verify(post.body, post.headers) as any;
    expect(body.type).toBe('report_run.succeeded');
    expect(body.data).toEqual({
      reportRun: {
        id: run.id,
        type: 'AGEING',
        state: 'SUCCEEDED',
        start: null,
        end: null,
        asOf: run.asOf,
        rowCount: ended.rowCount,
        byteSize: ended.byteSize,
        failureReason: null,
      },
    });
  });
});

describe('a PORTFOLIO_HISTORY run, and one that fails', () => {
  const snapshot = (day: string, currency: string) => ({
    partner_id: DEMO_PARTNER,
    day,
    currency,
    as_of: `${day}T00:00:00Z`,
    open_orders: 4,
    outstanding_minor: 40000,
    par30_minor: 10000,
    par60_minor: 5000,
    par90_minor: 0,
    locked_orders: 1,
    collected_minor: 2,
    due_minor: 3,
    first_payment_defaulted: 0,
    first_payment_eligible: 0,
    written_off_minor: 1000,
    period_start_outstanding_minor: 60000,
  });

  it('writes the stored days of the window with their ratios', async () => {
    await db()('portfolio_snapshots').insert([snapshot('2026-01-01', 'USD'), snapshot('2026-01-02', 'USD')]);
    const start = Date.parse('2026-01-01T12:00:00Z') / 1000;
    const run = await create(OPERATOR, { partnerId: DEMO_PARTNER, type: 'PORTFOLIO_HISTORY', start, end: start + DAY });
    await worker.drain();
    const file = await fileOf(run.id);
    expect(records(file.text)).toEqual([
      [...HISTORY_COLUMNS],
      ...['2026-01-01', '2026-01-02'].map((day) => [
        day,
        'USD',
        `${day}T00:00:00.000Z`,
        '4',
        '400',
        '0.2500',
        '0.1250',
        '0.0000',
        '0.6667',
        '',
        '0.2500',
        '10',
        '0.0200',
      ]),
    ]);
  });

  it('fails with the error and its code, writes report_run.failed, and leaves no file', async () => {
    // A stored day whose currency the service cannot write: an unexpected error, masked.
    await db()('portfolio_snapshots').insert(snapshot('2026-02-01', 'XXX'));
    const start = Date.parse('2026-02-01T00:00:00Z') / 1000;
    const run = await create(PARTNER, { partnerId: DEMO_PARTNER, type: 'PORTFOLIO_HISTORY', start, end: start + 60 });
    await worker.drain();
    const failed = await readRun(PARTNER, run.id);
    expect(failed).toMatchObject({ state: 'FAILED', downloadUrl: null, rowCount: null, byteSize: null });
    expect(failed.failureReason).toMatch(/^INTERNAL_SERVER_ERROR: internal server error \(error id [0-9a-f-]{36}\)$/);
    expect(await db()('report_file_chunks').where({ run_id: run.id })).toHaveLength(0);
    const file = await fileOf(run.id);
    expect(file.status).toBe(404);
    const events = await db()('events').where({ partner_id: DEMO_PARTNER, type: 'report_run.failed' });
    expect(events.map((event) => (typeof event.data === 'string' ? JSON.parse(event.data) : event.data))).toEqual([
      { reportRun: expect.objectContaining({ id: run.id, state: 'FAILED', failureReason: failed.failureReason }) },
    ]);
    await vi.waitFor(
      () => expect(receiver.received.some((post) => JSON.parse(post.body).type === 'report_run.failed')).toBe(true),
      { timeout: 10_000, interval: 20 },
    );
  });
});

describe('the runs, kept and bounded', () => {
  it('lists a partner its own runs, newest first, page by page', async () => {
    const page = await graphqlData(
      fixture.service,
      PARTNER,
      'query { reportRuns(first: 2) { nodes { id partnerId } pageInfo { hasNextPage endCursor } } }',
    );
    const all = await db()('report_runs').where({ partner_id: DEMO_PARTNER }).orderBy('id', 'desc').pluck('id');
    expect(page.reportRuns.nodes.map((node: any) => node.id)).toEqual(all.slice(0, 2).map(String));
    const next = await graphqlData(
      fixture.service,
      PARTNER,
      'query($after: String) { reportRuns(first: 100, after: $after) { nodes { id } } }',
      { after: page.reportRuns.pageInfo.endCursor },
    );
    expect(next.reportRuns.nodes.map((node: any) => node.id)).toEqual(all.slice(2).map(String));
    const other = await graphqlData(
      fixture.service,
      { 'x-api-key': 'other-partner-key' },
      'query { reportRuns { nodes { id } } }',
    );
    expect(other.reportRuns.nodes).toEqual([]);
  });

  it('deletes a file past REPORT_RETENTION_DAYS and keeps its run: 410 REPORT_FILE_EXPIRED, no downloadUrl', async () => {
    const [kept, expired] = await db()('report_runs')
      .where({ partner_id: DEMO_PARTNER, state: 'SUCCEEDED' })
      .orderBy('id')
      .limit(2)
      .pluck('id');
    await db()('report_runs')
      .where({ id: expired })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(await deleteExpiredFiles(db(), new Date())).toBeGreaterThan(0);
    expect(await db()('report_file_chunks').where({ run_id: expired })).toHaveLength(0);
    expect((await db()('report_file_chunks').where({ run_id: kept })).length).toBeGreaterThan(0);
    const run = await readRun(PARTNER, String(expired));
    expect(run).toMatchObject({ state: 'SUCCEEDED', downloadUrl: null });
    expect(run.expiresAt).toBeLessThanOrEqual(now());
    const file = await fileOf(String(expired));
    expect(file.status).toBe(410);
    expect(JSON.parse(file.text).error.code).toBe('REPORT_FILE_EXPIRED');
    expect((await fileOf(String(kept))).status).toBe(200);
  });

  it('runs at most REPORT_RUNS_PER_PARTNER of a partner at once, the others waiting; 20 waiting at most', async () => {
    const window = { start: now() - 2 * DAY, end: now() - DAY };
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await create(PARTNER, { partnerId: DEMO_PARTNER, type: 'TRANSACTIONS', ...window })).id);
    const settings = { perPartner: 2, leaseMs: 60_000 };
    const noFailure = async () => undefined;
    const first = await claimReportRun(db(), settings, noFailure);
    const second = await claimReportRun(db(), settings, noFailure);
    expect([first?.run.id, second?.run.id]).toEqual(ids.slice(0, 2));
    expect(await claimReportRun(db(), settings, noFailure)).toBeNull();
    // Another partner's run is not held up by this one's.
    const other = await create({ 'x-api-key': 'other-partner-key' }, { partnerId: '2', type: 'AGEING' });
    expect((await claimReportRun(db(), settings, noFailure))?.run.id).toBe(other.id);
    // 1 waiting; 19 more fill the bound, the next is refused.
    for (let i = 0; i < 19; i++) await create(PARTNER, { partnerId: DEMO_PARTNER, type: 'AGEING' });
    const refused = await graphqlRefusal(fixture.service, PARTNER, CREATE_REPORT_RUN, {
      input: { partnerId: DEMO_PARTNER, type: 'AGEING' },
    });
    expect(refused.extensions).toMatchObject({ code: 'TOO_MANY_REPORT_RUNS', limit: 20 });
  });
});
