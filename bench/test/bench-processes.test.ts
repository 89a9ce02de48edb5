// The bench's processes (bench/processes.ts): found on a port the bench chose, by their readiness,
// never by a log line (the service at LOG_LEVEL=warn in production writes none when it starts); and
// what fails the bench's smoke run (bench/smoke.ts).
import { describe, expect, it } from 'vitest';
import type { Measured } from '../load.js';
import { startProcess, stopProcess } from '../processes.js';
import type { Book, BookRead } from '../scenarios/book.js';
import type { LongWindow } from '../scenarios/long-window.js';
import type { Settings } from '../settings.js';
import { smokeProblems } from '../smoke.js';

const QUIET = 'test/support/fixtures/quietServer.fixture.ts';
/** Run from source (tsx), as --from-source does: no build needed. */
const settings = { fromSource: true, serviceV8Flags: [], baselineV8Flags: [] } as unknown as Settings;

describe('a process the bench starts', () => {
  it('is found by the port the bench chose, once it answers /readyz, though it writes nothing', async () => {
    const { child, port } = await startProcess(settings, 'quiet', QUIET, {}, { path: '/readyz' });
    try {
      let wrote = '';
      child.stdout?.on('data', (chunk) => (wrote += chunk));
      expect(port).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect(wrote).toBe('');
    } finally {
      await stopProcess(child);
    }
  });

  it('is found by any answer where it serves no probe', async () => {
    const { child, port } = await startProcess(settings, 'quiet', QUIET, {}, { anyAnswer: true });
    await stopProcess(child);
    expect(port).toBeGreaterThan(0);
  });

  it('fails the start with what it wrote when it exits before it answers', async () => {
    await expect(
      startProcess(settings, 'doomed', QUIET, { QUIET_SERVER_EXIT: 'no database' }, { path: '/readyz' }),
    ).rejects.toThrow(/doomed exited before it answered on port \d+ \(3\):\ncannot start: no database/);
  });
});

describe('the smoke run', () => {
  const answered = (name: string, figures: Partial<Measured> = {}) =>
    ({ name, requests: 40, non2xx: 0, errors: 0, timeouts: 0, graphqlErrors: 0, ...figures }) as Measured;
  const year = { days: 366, complete: true, status: 200, error: null } as LongWindow;
  const read = (name: string, figures: Partial<BookRead> = {}) =>
    ({ name, requests: 2, failed: 0, error: null, ...figures }) as BookRead;
  const book = {
    reads: [read('portfolioMetrics NONE as of now')],
    report: { complete: true, state: 'SUCCEEDED', rowCount: 10, rowsInWindow: 10, error: null },
  } as Book;
  const clean = { results: [answered('rest-lookup-customer')], longWindow: year, book, ledgerProblems: 0 };

  it('passes when every scenario was answered well and the checks after the load passed', () => {
    expect(smokeProblems({ ...clean, serviceErrors: { count: 0, samples: [] } })).toEqual([]);
  });

  it('fails on a scenario with no answer or a failed one, an incomplete year, a failed read or report of the book, a dirty ledger, a logged error', () => {
    expect(
      smokeProblems({
        results: [answered('bare-lookup', { requests: 0 }), answered('rest-record-customer-payment', { non2xx: 3 })],
        longWindow: { ...year, complete: false, status: 500 },
        book: {
          ...book,
          reads: [read('portfolioHistory of 365 days (DAY)', { requests: 0, failed: 3, error: 'answered 400' })],
          report: { ...book.report, complete: false, state: 'FAILED', error: 'INTERNAL: boom' },
        },
        ledgerProblems: 2,
        serviceErrors: { count: 1, samples: ['payment failed'] },
      }),
    ).toEqual([
      'bare-lookup: no request answered',
      'rest-record-customer-payment: 3 failed (non2xx 3, errors 0, timeouts 0, graphql 0)',
      'the 366-day list: not answered completely (status 500)',
      "the book's portfolioHistory of 365 days (DAY): 3 failed of 3 (answered 400)",
      "the book's TRANSACTIONS report: not complete (INTERNAL: boom)",
      'the ledger check: 2 problems',
      'the service logged 1 errors: payment failed',
    ]);
  });
});
