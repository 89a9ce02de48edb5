// A worker running a report (docs/decisions.md 45): claims a run (claim.ts), writes its file page by page
// into chunks under its lease (renewed as it writes), and ends it in one transaction with its event:
// SUCCEEDED with its rows, bytes, hash and expiry, or FAILED with the error's code and message (an
// unexpected error masked, its detail logged) and no file. A worker whose run was taken from it (its
// lease lapsed) writes nothing more and ends nothing.
import type { Logger } from 'pino';
import type { Db, DbOrTrx } from '../../db/knex.js';
import { AppError, maskUnexpectedError } from '../../kernel/errors.js';
import { appendEvents } from '../events/queries.js';
import type { NewEvent } from '../events/rows.js';
import type { PartnerClocks } from '../partners/clock.js';
import type { PartnerSettingsSource } from '../partners/settings.js';
import { ChunkedFile, type WrittenFile } from './chunkedFile.js';
import { claimReportRun, lockOwnedRun, MAX_ATTEMPTS, renewLease, writeChunk } from './claim.js';
import { csvLine } from './csv.js';
import type { ReportRunRow } from './rows.js';
import { headerRecord, reportSourceOf } from './sources.js';

export interface ReportWorkerDeps {
  db: Db;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Real time: the run's end and its file's expiry. */
  now: () => Date;
  /** The partners' time (the events') and settings (AGEING's grace). */
  policies: PartnerClocks & PartnerSettingsSource;
  /** RUNNING runs a partner may have at once (REPORT_RUNS_PER_PARTNER). */
  perPartner: number;
  /** Days a file is kept (REPORT_RETENTION_DAYS). */
  retentionDays: number;
  /** How long a claim or renewal holds a run; 60 s when absent. */
  leaseMs?: number;
  /** Aborted when the worker stops: the run under way is put back PENDING between two pages. */
  signal?: AbortSignal;
}

export const DEFAULT_LEASE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The run is no longer this attempt's: another worker took it after its lease lapsed. */
class LeaseLost extends Error {}
/** The worker is stopping: the run goes back to wait for another. */
class Stopping extends Error {}

const seconds = (at: Date | null) => (at === null ? null : Math.floor(at.getTime() / 1000));

/** report_run.succeeded or report_run.failed, in the graph's dialect (openapiWebhooks.ts ReportRunEventData). */
function endedEvent(run: ReportRunRow, occurredAt: Date): NewEvent {
  return {
    type: run.state === 'SUCCEEDED' ? 'report_run.succeeded' : 'report_run.failed',
    occurredAt,
    data: {
      reportRun: {
        id: run.id,
        type: run.type,
        state: run.state,
        start: seconds(run.window_start),
        end: seconds(run.window_end),
        asOf: seconds(run.as_of),
        rowCount: run.row_count === null ? null : Number(run.row_count),
        byteSize: run.byte_size === null ? null : Number(run.byte_size),
        failureReason: failureReasonOf(run),
      },
    },
  };
}

/** Why a run failed, as the graph and its event say it: the error's code and message. */
export const failureReasonOf = (run: Pick<ReportRunRow, 'failure_code' | 'failure_message'>): string | null =>
  run.failure_code === null ? null : `${run.failure_code}: ${run.failure_message}`;

/** Ends the run FAILED with `code` and `message`, its file deleted, its event written (in `trx`). */
async function endFailed(deps: ReportWorkerDeps, trx: DbOrTrx, run: ReportRunRow, code: string, message: string) {
  await trx('report_file_chunks').where({ partner_id: run.partner_id, run_id: run.id }).delete();
  const [failed] = (await trx('report_runs')
    .where({ partner_id: run.partner_id, id: run.id })
    .update({
      state: 'FAILED',
      failure_code: code,
      failure_message: message,
      finished_at: deps.now(),
      claimed_until: null,
    })
    .returning('*')) as ReportRunRow[];
  await appendEvents(trx, run.partner_id, [endedEvent(failed!, deps.policies.nowFor(run.partner_id))]);
  return failed!;
}

/** Writes the run's file: the header, then each page's records, renewing the lease at least every third of it. */
async function writeFile(deps: ReportWorkerDeps, run: ReportRunRow, leaseMs: number) {
  const file = new ChunkedFile(async (seq, bytes) => {
    if (!(await writeChunk(deps.db, run, seq, bytes, leaseMs))) throw new LeaseLost();
  });
  const source = reportSourceOf(deps.db, run, deps.policies.settingsFor(run.partner_id).lockGraceHours);
  await file.append(csvLine(headerRecord(source)));
  let rowCount = 0;
  let renewedAt = Date.now();
  if (deps.signal?.aborted) throw new Stopping();
  for await (const page of source.pages()) {
    if (deps.signal?.aborted) throw new Stopping();
    let text = '';
    for (const record of page) text += csvLine(record);
    rowCount += page.length;
    await file.append(text);
    if (Date.now() - renewedAt > leaseMs / 3) {
      if (!(await renewLease(deps.db, run, leaseMs))) throw new LeaseLost();
      renewedAt = Date.now();
    }
  }
  return { rowCount, written: await file.finish() };
}

/** Ends the run SUCCEEDED with its file's figures and its event, if this attempt still owns it. */
async function endSucceeded(deps: ReportWorkerDeps, run: ReportRunRow, rowCount: number, written: WrittenFile) {
  return deps.db.transaction(async (trx) => {
    if (!(await lockOwnedRun(trx, run))) throw new LeaseLost();
    const finishedAt = deps.now();
    const [succeeded] = (await trx('report_runs')
      .where({ partner_id: run.partner_id, id: run.id })
      .update({
        state: 'SUCCEEDED',
        finished_at: finishedAt,
        claimed_until: null,
        row_count: rowCount,
        byte_size: written.byteSize,
        sha256: written.sha256,
        expires_at: new Date(finishedAt.getTime() + deps.retentionDays * DAY_MS),
      })
      .returning('*')) as ReportRunRow[];
    await appendEvents(trx, run.partner_id, [endedEvent(succeeded!, deps.policies.nowFor(run.partner_id))]);
    return succeeded!;
  });
}

/** Ends the run FAILED for `error` (an AppError as it is, anything else masked and logged), if still its own. */
async function fail(deps: ReportWorkerDeps, run: ReportRunRow, error: unknown): Promise<void> {
  let code: string;
  let message: string;
  if (error instanceof AppError) {
    code = error.code;
    message = error.message;
  } else {
    const { formatted, errorId } = maskUnexpectedError({ message: 'unexpected' }, error);
    code = String(formatted.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
    message = formatted.message;
    deps.logger.error({ err: error, errorId, reportRunId: run.id, partnerId: run.partner_id }, 'a report run failed');
  }
  await deps.db.transaction(async (trx) => {
    if (await lockOwnedRun(trx, run)) await endFailed(deps, trx, run, code, message);
  });
}

/**
 * Puts the attempt's run back PENDING, its partial file deleted and the attempt not counted (a stop is
 * no failure), if still its own: another worker takes it at its next claim instead of after the lease.
 */
async function putBack(deps: ReportWorkerDeps, run: ReportRunRow): Promise<void> {
  await deps.db.transaction(async (trx) => {
    if (!(await lockOwnedRun(trx, run))) return;
    await trx('report_file_chunks').where({ partner_id: run.partner_id, run_id: run.id }).delete();
    await trx('report_runs')
      .where({ partner_id: run.partner_id, id: run.id })
      .update({ state: 'PENDING', attempts: run.attempts - 1, started_at: null, claimed_until: null });
  });
}

/**
 * Claims one run and runs it to its end; answers 1 when a run was claimed (the loop asks again at
 * once), 0 when none may start.
 */
export async function runNextReport(deps: ReportWorkerDeps): Promise<number> {
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const claimed = await claimReportRun(deps.db, { perPartner: deps.perPartner, leaseMs }, async (trx, run) => {
    const message = `the run was started ${MAX_ATTEMPTS} times and its worker stopped each time before it ended`;
    await endFailed(deps, trx, run, 'INTERNAL_SERVER_ERROR', message);
    deps.logger.warn({ reportRunId: run.id, partnerId: run.partner_id }, 'a report run failed: attempts exhausted');
  });
  if (!claimed) return 0;
  if (claimed.exhausted) return 1;
  const { run } = claimed;
  try {
    const { rowCount, written } = await writeFile(deps, run, leaseMs);
    await endSucceeded(deps, run, rowCount, written);
    deps.logger.info(
      { reportRunId: run.id, partnerId: run.partner_id, type: run.type, rowCount, byteSize: written.byteSize },
      'a report run succeeded',
    );
  } catch (error) {
    if (error instanceof Stopping) {
      await putBack(deps, run);
      deps.logger.info({ reportRunId: run.id, partnerId: run.partner_id }, 'a report run put back: the worker stops');
      return 1;
    }
    if (error instanceof LeaseLost) {
      deps.logger.warn({ reportRunId: run.id, partnerId: run.partner_id }, 'a report run was taken by another worker');
      return 1;
    }
    await fail(deps, run, error);
  }
  return 1;
}
