// The book phase's report run (scenarios/book.ts): one TRANSACTIONS report of the busiest partner's
// last 366 days (the long window's: about 900,000 rows at 10x data), asked through the api process and
// run by the worker-role process, whose resident memory is sampled while it runs (VmRSS every 100 ms)
// and read at its peak after (VmHWM: the process's whole life, its start included). Then its file is
// downloaded once through the api process by its signed link, counting bytes, never holding them.
import os from 'node:os';
import { cpuBetween, cpuReadable, readCpu } from '../cpu.js';
import { postgresPids, unionOf } from '../load.js';
import { log, round } from '../log.js';
import { procStatus } from '../processes.js';
import type { Bench } from '../services.js';
import { DAY } from '../settings.js';

/** A GraphQL request with the partner's key: the body's data, or a thrown error naming what came back. */
export type Ask = (query: string, variables: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface BookReport {
  days: number;
  start: number;
  end: number;
  /** The window's transactions counted in SQL, which the file's rows must equal. */
  rowsInWindow: number;
  state: string | null;
  /** From createReportRun's answer until a poll (every 100 ms) saw it SUCCEEDED or FAILED. */
  msToSucceeded: number | null;
  /** The worker's own run, finishedAt − startedAt (whole seconds: the graph's Timestamp). */
  runMs: number | null;
  rowCount: number | null;
  byteSize: number | null;
  /** rowCount over msToSucceeded (the run's whole time as a client sees it, its claim included). */
  rowsPerSecond: number | null;
  complete: boolean;
  workerRssBeforeBytes: number | null;
  workerRssPeakSampledBytes: number | null;
  workerVmHwmBytes: number | null;
  /**
   * CPU from the request to its end, in ms: the worker's process, the database's Postgres backends,
   * and the machine's cores busy (all of them: other work included), with their count.
   */
  cpu: { workerMs: number | null; postgresMs: number | null; machineBusyMs: number; cores: number } | null;
  download: { status: number; bytes: number; ms: number } | null;
  error: string | null;
}

const CREATE = `mutation($input: CreateReportRunInput!) { createReportRun(input: $input) { id state } }`;
const READ = `query($id: ID!) {
  reportRun(id: $id) { state rowCount byteSize startedAt finishedAt failureReason downloadUrl }
}`;

/** How long a run may take before the phase gives up on it (a 10x year took under a minute when this was written). */
const RUN_WITHIN_MS = 15 * 60_000;

interface RunRead {
  state: string;
  rowCount: number | null;
  byteSize: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  failureReason: string | null;
  downloadUrl: string | null;
}

export async function reportRun(bench: Bench, ask: Ask, apiPort: number, workerPid: number): Promise<BookReport> {
  const { partner, windows } = bench.workload;
  const days = 366;
  const end = windows['1 day']!.end;
  const start = end - days * DAY;
  const counted = (
    await bench.data.raw(
      `select count(*)::int8 as n from transactions where partner_id = ? and occurred_at >= to_timestamp(?) and occurred_at < to_timestamp(?)`,
      [partner, start, end],
    )
  ).rows[0] as { n: string };
  const report: BookReport = {
    ...{ days, start, end, rowsInWindow: Number(counted.n), state: null, msToSucceeded: null, runMs: null },
    ...{ rowCount: null, byteSize: null, rowsPerSecond: null, complete: false },
    workerRssBeforeBytes: procStatus(workerPid, 'VmRSS'),
    ...{ workerRssPeakSampledBytes: null, workerVmHwmBytes: null, cpu: null, download: null, error: null },
  };
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, procStatus(workerPid, 'VmRSS') ?? 0);
  }, 100);
  const pids = cpuReadable ? await postgresPids(bench) : null;
  const cpuBefore = cpuReadable ? readCpu(workerPid, pids) : null;
  try {
    const at = performance.now();
    const created = (await ask(CREATE, { input: { partnerId: partner, type: 'TRANSACTIONS', start, end } }))
      .createReportRun as { id: string };
    let run: RunRead;
    do {
      await new Promise((done) => setTimeout(done, 100));
      run = (await ask(READ, { id: created.id })).reportRun as RunRead;
      if (performance.now() - at > RUN_WITHIN_MS)
        throw new Error(`the run was still ${run.state} after ${RUN_WITHIN_MS / 1000} s`);
    } while (run.state === 'PENDING' || run.state === 'RUNNING');
    report.msToSucceeded = round(performance.now() - at);
    if (cpuBefore) {
      const spent = cpuBetween(cpuBefore, readCpu(workerPid, unionOf(pids, await postgresPids(bench))));
      report.cpu = {
        workerMs: spent.process,
        postgresMs: spent.postgres,
        machineBusyMs: Math.round(spent.machineBusy),
        cores: os.cpus().length,
      };
    }
    report.state = run.state;
    report.rowCount = run.rowCount;
    report.byteSize = run.byteSize;
    report.runMs = run.startedAt !== null && run.finishedAt !== null ? (run.finishedAt - run.startedAt) * 1000 : null;
    report.rowsPerSecond = run.rowCount !== null ? Math.round(run.rowCount / (report.msToSucceeded / 1000)) : null;
    report.complete = run.state === 'SUCCEEDED' && run.rowCount === report.rowsInWindow;
    if (run.state !== 'SUCCEEDED') report.error = run.failureReason ?? `ended ${run.state}`;
    else if (run.downloadUrl) report.download = await download(apiPort, run.downloadUrl);
    if (report.download && report.download.bytes !== run.byteSize) {
      report.complete = false;
      report.error = `the download had ${report.download.bytes} bytes, the run says ${run.byteSize}`;
    }
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
  } finally {
    clearInterval(sampler);
  }
  report.workerRssPeakSampledBytes = peak || null;
  report.workerVmHwmBytes = procStatus(workerPid, 'VmHWM');
  if (report.download)
    log(
      `book: the report's file downloaded by its link: ${report.download.status}, ${report.download.bytes.toLocaleString('en-US')} bytes in ${report.download.ms} ms`,
    );
  return report;
}

/** The file by its signed link (a path and query on the service's origin), counted as it streams. */
async function download(port: number, link: string): Promise<{ status: number; bytes: number; ms: number }> {
  const at = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}${link}`);
  let bytes = 0;
  for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).byteLength;
  return { status: response.status, bytes, ms: round(performance.now() - at) };
}
