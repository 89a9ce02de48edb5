// Phase longWindow: the partner's whole year (a 366-day window) asked of the service once, as a partner
// would, after the load: answered completely or not, in how long, in how many bytes, and with how much
// of the service's memory. At 10x data that is about 900,000 rows (225 MB of JSON), which the service
// streams page by page; the bench reads it as a stream too (counting rows, never holding the body),
// samples the service's resident memory meanwhile, and counts the window's rows in SQL to hold the
// answer against.
import { log, mb, phase, round } from '../log.js';
import { procStatus } from '../processes.js';
import type { Bench } from '../services.js';
import { DAY } from '../settings.js';

export interface LongWindow {
  days: number;
  start: number;
  end: number;
  status: number | null;
  /** The window's rows counted in SQL, and in the answer. */
  rowsInWindow: number;
  rowsAnswered: number;
  bytes: number;
  firstByteMs: number | null;
  ms: number;
  /** Every row answered, and the body closed as the legacy list closes it. */
  complete: boolean;
  /** The service's resident memory: before the request, and the highest sampled while it answered. */
  serviceRssBeforeBytes: number | null;
  serviceRssPeakBytes: number | null;
  error: string | null;
}

/** A row of the legacy list begins so; nothing nested in one does. */
const ROW = '{"type":"';

export async function longWindow(bench: Bench, days = 366): Promise<LongWindow> {
  const { partner, partnerKey, windows } = bench.workload;
  const end = windows['1 day']!.end;
  const start = end - days * DAY;
  const counted = (
    await bench.data.raw(
      `select count(*)::int8 as n from transactions where partner_id = ? and occurred_at >= to_timestamp(?) and occurred_at < to_timestamp(?)`,
      [partner, start, end],
    )
  ).rows[0] as { n: string };
  const pid = bench.services.answering.service.pid;
  const figures: LongWindow = {
    ...{ days, start, end, status: null, rowsInWindow: Number(counted.n), rowsAnswered: 0, bytes: 0 },
    ...{ firstByteMs: null, ms: 0, complete: false, error: null },
    serviceRssBeforeBytes: procStatus(pid, 'VmRSS'),
    serviceRssPeakBytes: null,
  };
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, procStatus(pid, 'VmRSS') ?? 0);
  }, 100);
  await phase('longWindow', async () => {
    const at = performance.now();
    try {
      const path = `/v1/list-transactions.php?key=${partnerKey}&starttime=${start}&endtime=${end}`;
      const response = await fetch(`http://127.0.0.1:${bench.services.servicePort}${path}`);
      figures.status = response.status;
      let tail = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body ?? []) {
        figures.firstByteMs ??= round(performance.now() - at);
        figures.bytes += chunk.byteLength;
        // Counted across chunk boundaries: the last few characters are kept for the next chunk.
        const text = tail + decoder.decode(chunk, { stream: true });
        figures.rowsAnswered += text.split(ROW).length - 1;
        tail = text.slice(-(ROW.length - 1));
      }
      figures.complete =
        response.ok && figures.rowsAnswered === figures.rowsInWindow && (tail + decoder.decode()).endsWith(']}');
    } catch (error) {
      figures.error = error instanceof Error ? error.message : String(error);
    } finally {
      figures.ms = round(performance.now() - at);
      clearInterval(sampler);
    }
  });
  figures.serviceRssPeakBytes = peak || null;
  log(
    `list-transactions, ${days} days (${figures.rowsInWindow.toLocaleString('en-US')} rows in the window): ${figures.status ?? 'no answer'} in ${figures.ms} ms (first byte ${figures.firstByteMs ?? '?'} ms), ${mb(figures.bytes)} MB, ${figures.rowsAnswered.toLocaleString('en-US')} rows, ${figures.complete ? 'complete' : 'NOT COMPLETE'}; the service's RSS ${mb(figures.serviceRssBeforeBytes)} MB before, ${mb(figures.serviceRssPeakBytes)} MB at most while answering${figures.error ? `; ${figures.error}` : ''}`,
  );
  return figures;
}
