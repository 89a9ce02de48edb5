// A report's file as CSV (docs/decisions.md 45): RFC 4180 (comma, CRLF, a field quoted when it holds a
// comma, a quote or a line break, quotes doubled), UTF-8 without a byte order mark. A text field a
// spreadsheet would take for a formula is written after a `'` (OWASP's CSV injection advice); numbers,
// ids and times are written as they are, so a negative amount stays a number.
import { decimalToJsonNumber, formatAmount } from '../../kernel/money.js';

/** A field: text (guarded), or a value written as it is (a number, an id, a time); null is empty. */
export type CsvField = { text: string } | string | number | null;

/** A text field: guarded against formulas when written. */
export const text = (value: string | null | undefined): CsvField => (value == null ? null : { text: value });

const NEEDS_QUOTES = /[",\r\n]/;
/** What a spreadsheet reads as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

function encodeField(field: CsvField): string {
  if (field === null) return '';
  let value: string;
  if (typeof field === 'object') value = FORMULA_START.test(field.text) ? `'${field.text}` : field.text;
  else value = String(field);
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One record, CRLF-terminated. */
export function csvLine(fields: readonly CsvField[]): string {
  return `${fields.map(encodeField).join(',')}\r\n`;
}

/** An amount in major units as the legacy list writes it: the JSON number of its decimal (18, 0.9, -214.5). */
export const majorUnits = (decimal: string): string => String(decimalToJsonNumber(decimal));

/** An amount in minor units of `currency`, in major units as the legacy list writes them. */
export const majorUnitsOf = (minor: bigint | string, currency: string): string =>
  majorUnits(formatAmount(minor, currency));

/** A time as the files write it: ISO 8601 in UTC with milliseconds. */
export const isoTime = (at: Date): string => at.toISOString();
