// Opaque cursors of the transactions connection: the exact (time, id) keyset position, so a page
// continues precisely after the last transaction seen, even among transactions of the same instant.
import { invalidArgument } from '../../kernel/errors.js';
import type { ListedTransactionRow } from './rows.js';

export function cursorOf(row: ListedTransactionRow): string {
  return Buffer.from(`${row.occurred_at_us}:${row.id}`).toString('base64url');
}

// Microseconds from 1970 to the year 9999 fit in 18 digits; ids are positive int8 values.
const CURSOR = /^(\d{1,18}):([1-9]\d{0,17})$/;

export function parseCursor(cursor: string): { timeUs: string; id: string } {
  const match = CURSOR.exec(Buffer.from(cursor.slice(0, 100), 'base64url').toString('utf8'));
  if (!match) throw invalidArgument('after', 'is not a cursor of this connection');
  return { timeUs: match[1]!, id: match[2]! };
}
