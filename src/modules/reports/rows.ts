// Report runs' shapes (docs/decisions.md 45).
import type { ConnectionPage, EdgeParent } from '../pages.js';
import type { CsvField } from './csv.js';

export type ReportType = 'TRANSACTIONS' | 'AGEING' | 'PORTFOLIO_HISTORY';
export type ReportRunState = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';

/** A row of `report_runs` (int8 as strings; times as Dates). */
export interface ReportRunRow {
  partner_id: string;
  id: string;
  type: ReportType;
  state: ReportRunState;
  window_start: Date | null;
  window_end: Date | null;
  as_of: Date | null;
  requested_by: 'partner' | 'operator';
  api_key_id: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  claimed_until: Date | null;
  attempts: number;
  failure_code: string | null;
  failure_message: string | null;
  row_count: string | null;
  byte_size: string | null;
  sha256: string | null;
  expires_at: Date | null;
  /** The run's HMAC key for its signed links: never shown, never logged. */
  link_key: Buffer;
}

export type ReportRunEdgeParent = EdgeParent<ReportRunRow>;
export type ReportRunConnectionParent = ConnectionPage<ReportRunRow>;

/** What a report type writes: a fixed header and its records, page by page (sources.ts picks one per run). */
export interface ReportSource {
  header: readonly string[];
  /** The records, page by page. */
  pages(): AsyncGenerator<CsvField[][]>;
}
