// The workers' claim of report runs (docs/decisions.md 45), after webhook deliveries' and the lock
// timeline's: the oldest waiting run of a partner with fewer than `perPartner` runs under a live lease,
// or a run whose lease lapsed (its worker died), taken with FOR UPDATE SKIP LOCKED and marked RUNNING
// with its attempt counted, in one transaction. The claims of every worker take turns on one
// transaction-scoped advisory lock, so the per-partner count a claim reads is never one another claim is
// about to change. A run taken again starts from the start: its partial file is deleted in the claim.
// The worker's lease is its attempt: every write of the run names it (`attempts = <its attempt>`), so a
// worker whose run was taken from it writes nothing more, its chunks included.
//
// Found in two steps, the same on every backend, since Citus locks rows only in a statement it runs on
// one shard (decisions.md 48): a read with no row lock lists the partners with a run to take and room
// under their bound, the oldest such run's partner first (Citus reads every shard); then the partner's
// oldest run is locked by a statement pinned to it, partner after partner in that order until one gives
// a run. Under the claim lock the listing's counts hold, so the first partner gives a run unless every
// run it has to take is row-locked (a lapsed attempt's worker ending it just then). The one way the
// order differs from a single statement across partners: a partner whose oldest run is row-locked has
// its next run taken before another partner's older one.
import type { Db, DbOrTrx } from '../../db/knex.js';
import type { ReportRunRow } from './rows.js';

/** After this many attempts a run whose lease lapsed again is FAILED instead of taken again. */
export const MAX_ATTEMPTS = 3;

/** The claim's lock: one claim at a time across every worker (a claim is one short transaction). */
const CLAIM_LOCK = 'report-runs:claim';

export interface ClaimSettings {
  /** RUNNING runs a partner may have at once (REPORT_RUNS_PER_PARTNER). */
  perPartner: number;
  /** How long a claim or a renewal holds the run. */
  leaseMs: number;
}

/** A run claimed (RUNNING, its attempt counted), or one whose attempts ran out (FAILED in the claim). */
export type Claimed = { run: ReportRunRow; exhausted: boolean } | null;

/** Runs waiting, or running under a lapsed lease: the runs a claim may take (a partner's bound aside). */
const TAKEABLE = "(state = 'PENDING' or claimed_until < statement_timestamp())";

/**
 * The partners with a run to take and room under their bound, the oldest run's partner first (ties by
 * partner): no row locked, so it may read every partner's rows.
 */
const PARTNERS_WAITING = `select partner_id, min(created_at) filter (where ${TAKEABLE}) as oldest_waiting
  from report_runs
  where state in ('PENDING', 'RUNNING')
  group by partner_id
  having count(*) filter (where ${TAKEABLE}) > 0
    and count(*) filter (where state = 'RUNNING' and claimed_until >= statement_timestamp()) < ?
  order by oldest_waiting, partner_id`;

/** The partner's run to take, oldest first, if it has room under its bound: every table pinned to the partner. */
const CANDIDATE = `select r.partner_id, r.id, r.state, r.attempts from report_runs r
  where r.partner_id = ? and r.state in ('PENDING', 'RUNNING')
    and (r.state = 'PENDING' or r.claimed_until < statement_timestamp())
    and (select count(*) from report_runs running
         where running.partner_id = ? and running.state = 'RUNNING'
           and running.claimed_until >= statement_timestamp()) < ?
  order by r.created_at, r.id
  limit 1
  for update of r skip locked`;

interface Candidate {
  partner_id: string;
  id: string;
  state: string;
  attempts: number;
}

/**
 * Claims one run (see above); null when none may start. A lapsed run that has had MAX_ATTEMPTS is
 * not taken again: `failExhausted` ends it in the claim's own transaction.
 */
export async function claimReportRun(
  db: Db,
  settings: ClaimSettings,
  failExhausted: (trx: DbOrTrx, run: ReportRunRow) => Promise<void>,
): Promise<Claimed> {
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [CLAIM_LOCK]);
    const { rows: partners } = (await trx.raw(PARTNERS_WAITING, [settings.perPartner])) as {
      rows: Array<{ partner_id: string }>;
    };
    for (const { partner_id } of partners) {
      const partnerId = String(partner_id);
      const { rows } = (await trx.raw(CANDIDATE, [partnerId, partnerId, settings.perPartner])) as {
        rows: Candidate[];
      };
      if (rows[0]) return take(trx, rows[0], settings, failExhausted);
    }
    return null;
  });
}

/** Marks the locked candidate RUNNING with its attempt counted, or FAILED when a lapsed run's attempts ran out. */
async function take(
  trx: DbOrTrx,
  candidate: Candidate,
  settings: ClaimSettings,
  failExhausted: (trx: DbOrTrx, run: ReportRunRow) => Promise<void>,
): Promise<Claimed> {
  const key = { partner_id: String(candidate.partner_id), id: String(candidate.id) };
  // Taken again from the start, or failed: what the lapsed attempt wrote is dropped.
  if (candidate.state === 'RUNNING')
    await trx('report_file_chunks').where({ partner_id: key.partner_id, run_id: key.id }).delete();
  if (candidate.state === 'RUNNING' && candidate.attempts >= MAX_ATTEMPTS) {
    const run = (await trx<ReportRunRow>('report_runs').where(key).first())!;
    await failExhausted(trx, run);
    return { run, exhausted: true };
  }
  const [run] = (await trx('report_runs')
    .where(key)
    .update({
      state: 'RUNNING',
      attempts: trx.raw('attempts + 1'),
      started_at: trx.raw('statement_timestamp()'),
      claimed_until: leaseEnd(trx, settings.leaseMs),
    })
    .returning('*')) as ReportRunRow[];
  return { run: run!, exhausted: false };
}

// The claim's and the lease's times are the statement's start, statement_timestamp(): Citus refuses a
// VOLATILE function (clock_timestamp()) in an UPDATE of a distributed table, a STABLE one it evaluates once.
const leaseEnd = (db: DbOrTrx, leaseMs: number) =>
  db.raw("statement_timestamp() + ? * interval '1 millisecond'", [leaseMs]);

/** The run as its attempt owns it: still RUNNING and not taken again since. */
export const ownedBy = (run: Pick<ReportRunRow, 'partner_id' | 'id' | 'attempts'>) => ({
  partner_id: run.partner_id,
  id: run.id,
  state: 'RUNNING',
  attempts: run.attempts,
});

/** Extends the attempt's lease; false when the run is no longer its own (taken again after a lapse). */
export async function renewLease(db: DbOrTrx, run: ReportRunRow, leaseMs: number): Promise<boolean> {
  const renewed = await db('report_runs')
    .where(ownedBy(run))
    .update({ claimed_until: leaseEnd(db, leaseMs) });
  return Number(renewed) === 1;
}

/**
 * Writes chunk `seq` of the attempt's file and renews its lease in one statement; false (nothing
 * written) when the run is no longer its own.
 */
export async function writeChunk(
  db: DbOrTrx,
  run: ReportRunRow,
  seq: number,
  bytes: Buffer,
  leaseMs: number,
): Promise<boolean> {
  const { rows } = (await db.raw(
    `with owned as (
       update report_runs set claimed_until = statement_timestamp() + ? * interval '1 millisecond'
       where partner_id = ? and id = ? and state = 'RUNNING' and attempts = ?
       returning partner_id, id)
     insert into report_file_chunks (partner_id, run_id, seq, bytes)
     select partner_id, id, ?, ? from owned
     returning seq`,
    [leaseMs, run.partner_id, run.id, run.attempts, seq, bytes],
  )) as { rows: unknown[] };
  return rows.length === 1;
}

/** The run locked for its end, if its attempt still owns it (undefined: taken again, or ended). */
export async function lockOwnedRun(trx: DbOrTrx, run: ReportRunRow): Promise<ReportRunRow | undefined> {
  return trx<ReportRunRow>('report_runs').where(ownedBy(run)).forUpdate().first();
}
