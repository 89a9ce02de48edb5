// The book's figures as the portfolio view shows them: which field, its label, and how it is written.
// par30/60/90 are ratios (outstanding past due over outstanding), as the schema describes them.
import type { ConsolePortfolioMetricsQuery } from '../../__generated__/operations.js';
import * as format from '../../format.js';

export type MetricsRow = ConsolePortfolioMetricsQuery['portfolioMetrics'][number];

export type FigureField =
  | 'openOrders'
  | 'outstanding'
  | 'par30'
  | 'par60'
  | 'par90'
  | 'collectionRate'
  | 'firstPaymentDefaultRate'
  | 'lockedShare'
  | 'writtenOff'
  | 'writeOffRatio';

export interface Figure {
  field: FigureField;
  label: string;
  kind: 'count' | 'money' | 'ratio';
}

export const FIGURES: readonly Figure[] = [
  { field: 'openOrders', label: 'Open orders', kind: 'count' },
  { field: 'outstanding', label: 'Outstanding', kind: 'money' },
  { field: 'par30', label: 'PAR30', kind: 'ratio' },
  { field: 'par60', label: 'PAR60', kind: 'ratio' },
  { field: 'par90', label: 'PAR90', kind: 'ratio' },
  { field: 'collectionRate', label: 'Collection rate', kind: 'ratio' },
  { field: 'firstPaymentDefaultRate', label: 'First payment default', kind: 'ratio' },
  { field: 'lockedShare', label: 'Locked share', kind: 'ratio' },
  { field: 'writtenOff', label: 'Written off', kind: 'money' },
  { field: 'writeOffRatio', label: 'Write-off ratio', kind: 'ratio' },
];

/** The graph's value as it came ('' for null): what a tile carries in data-value. */
export function rawValueOf(row: MetricsRow, field: FigureField): string {
  const value = row[field];
  return value == null ? '' : String(value);
}

/** The figure written for a person: a count grouped, money with its currency, a ratio as a percentage. */
export function figureText(row: MetricsRow, figure: Figure): string {
  const value = row[figure.field];
  if (figure.kind === 'count') return format.count(value as number);
  if (figure.kind === 'money') return format.money(value as string, row.currency);
  return format.percent(value as string | null);
}
