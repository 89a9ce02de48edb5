// What each report type writes (docs/decisions.md 45, docs/integrating.md#report-files): a fixed header
// and its records, a page at a time, so the worker holds one page at most whatever the file's size.
import type { DbOrTrx } from '../../db/knex.js';
import { ageingSource, historySource } from './bookFiles.js';
import { type CsvField, text } from './csv.js';
import type { ReportRunRow, ReportSource } from './rows.js';
import { transactionsSource } from './transactionsFile.js';

/** The header as the file's first record (column names are text like any other). */
export const headerRecord = (source: ReportSource): CsvField[] => source.header.map((name) => text(name));

/** The source of `run`'s file; `graceHours`: the partner's lock grace now (AGEING's lockAt). */
export function reportSourceOf(db: DbOrTrx, run: ReportRunRow, graceHours: number): ReportSource {
  switch (run.type) {
    case 'TRANSACTIONS':
      return transactionsSource(db, run.partner_id, run.window_start!, run.window_end!);
    case 'AGEING':
      return ageingSource(db, run.partner_id, run.as_of!, graceHours);
    case 'PORTFOLIO_HISTORY':
      return historySource(db, run.partner_id, run.window_start!, run.window_end!);
  }
}
