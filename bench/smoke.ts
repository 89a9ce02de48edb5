// What fails `npm run bench -- --smoke` (CI's bench step) besides a phase that throws: its figures
// mean nothing on a small data set and a busy machine, but every scenario must have been answered,
// and answered well, and the checks after the load must have passed. A broken bench, or a service
// the bench can no longer drive, fails CI here instead of on the next run of record.
import { failuresOf, type Measured } from './load.js';
import type { ErrorLog } from './processes.js';
import type { Book } from './scenarios/book.js';
import type { LongWindow } from './scenarios/long-window.js';

export interface SmokeRun {
  results: readonly Measured[];
  longWindow: LongWindow;
  book: Book;
  ledgerProblems: number;
  serviceErrors: ErrorLog;
}

/** Each way the smoke run went wrong, in words; none: it passed. */
export function smokeProblems(run: SmokeRun): string[] {
  const problems: string[] = [];
  for (const result of run.results) {
    if (result.requests === 0) problems.push(`${result.name}: no request answered`);
    const failed = failuresOf(result);
    if (failed > 0)
      problems.push(
        `${result.name}: ${failed} failed (non2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}, graphql ${result.graphqlErrors})`,
      );
  }
  if (!run.longWindow.complete)
    problems.push(
      `the ${run.longWindow.days}-day list: not answered completely (${run.longWindow.error ?? `status ${run.longWindow.status}`})`,
    );
  for (const read of run.book.reads)
    if (read.failed > 0 || read.requests === 0)
      problems.push(
        `the book's ${read.name}: ${read.failed} failed of ${read.failed + read.requests} (${read.error ?? 'none answered'})`,
      );
  if (!run.book.report.complete)
    problems.push(
      `the book's TRANSACTIONS report: not complete (${run.book.report.error ?? `${run.book.report.state}, ${run.book.report.rowCount} of ${run.book.report.rowsInWindow} rows`})`,
    );
  if (run.ledgerProblems > 0) problems.push(`the ledger check: ${run.ledgerProblems} problems`);
  if (run.serviceErrors.count > 0)
    problems.push(`the service logged ${run.serviceErrors.count} errors: ${run.serviceErrors.samples.join(' | ')}`);
  return problems;
}
