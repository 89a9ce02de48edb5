// Report runs' reads and plain writes (docs/decisions.md 45). Every read of a partner's run names the
// partner, so a lookup can only find a run of the partner it names; the download route alone finds a run
// by its id (the signed link names no partner), and checks whose it is itself.
import type { DbOrTrx } from '../../db/knex.js';
import type { ReportRunRow, ReportType } from './rows.js';

export interface NewReportRun {
  partner_id: string;
  type: ReportType;
  window_start: Date | null;
  window_end: Date | null;
  as_of: Date | null;
  requested_by: 'partner' | 'operator';
  api_key_id: string | null;
  link_key: Buffer;
}

export async function insertReportRun(trx: DbOrTrx, run: NewReportRun): Promise<ReportRunRow> {
  const [row] = await trx<ReportRunRow>('report_runs').insert(run).returning('*');
  return row as ReportRunRow;
}

/** A run of one partner, or of any when `partnerId` is null (operators); undefined: none. */
export function reportRunOf(db: DbOrTrx, partnerId: string | null, id: string): Promise<ReportRunRow | undefined> {
  const query = db<ReportRunRow>('report_runs').where({ id });
  if (partnerId !== null) query.where({ partner_id: partnerId });
  return query.first();
}

/** Newest first (ids grow with time): a page after run `after`, of one partner or every partner (null). */
export function listReportRuns(
  db: DbOrTrx,
  partnerId: string | null,
  page: { after: string | undefined; limit: number },
): Promise<ReportRunRow[]> {
  const query = db<ReportRunRow>('report_runs').select('*');
  if (partnerId !== null) query.where({ partner_id: partnerId });
  if (page.after !== undefined) query.where('id', '<', page.after);
  return query.orderBy('id', 'desc').limit(page.limit);
}

/** Whether listReportRuns holds a run at or before run `after` in its order (hasPreviousPage). */
export async function reportRunsPrecede(db: DbOrTrx, partnerId: string | null, after: string): Promise<boolean> {
  const query = db('report_runs').where('id', '>=', after);
  if (partnerId !== null) query.where({ partner_id: partnerId });
  return (await query.first('id')) !== undefined;
}

/** How many of the partner's runs wait for a worker. */
export async function waitingRunsOf(db: DbOrTrx, partnerId: string): Promise<number> {
  const row = await db('report_runs').where({ partner_id: partnerId, state: 'PENDING' }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** A file's chunks `fromSeq` onwards, at most `count` of them, in order: the download streams batch by batch. */
export async function fileChunks(
  db: DbOrTrx,
  run: Pick<ReportRunRow, 'partner_id' | 'id'>,
  fromSeq: number,
  count: number,
): Promise<Array<{ seq: number; bytes: Buffer }>> {
  return db('report_file_chunks')
    .select('seq', 'bytes')
    .where({ partner_id: run.partner_id, run_id: run.id })
    .where('seq', '>=', fromSeq)
    .orderBy('seq')
    .limit(count);
}

/**
 * Deletes the chunks of every file whose run expired by `now` (real time): the runs stay, expiresAt
 * past. Answers the chunks deleted.
 */
export async function deleteExpiredFiles(db: DbOrTrx, now: Date): Promise<number> {
  const { rowCount, affectedRows } = (await db.raw(
    `delete from report_file_chunks c using report_runs r
     where r.expires_at <= ? and c.partner_id = r.partner_id and c.run_id = r.id`,
    [now],
  )) as { rowCount?: number; affectedRows?: number };
  return Number(rowCount ?? affectedRows ?? 0);
}
