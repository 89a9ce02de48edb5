// Opaque cursors of the transactions connection: the exact (time, id) keyset position, so a page
// continues precisely after the last transaction seen, even among transactions of the same instant.
import { invalidArgument } from '../../errors.js';
import type { ListedTransactionRow } from './rows.js';

export function cursorOf(row: ListedTransactionRow): string {
  return Buffer.from(`${row.occurred_at_us}:${row.id}`).toString('base64url');
}

export function parseCursor(cursor: string): { timeUs: string; id: string } {
  const match = /^(-?\d{1,19}):(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidArgument('after', 'is not a cursor of this connection');
  return { timeUs: match[1]!, id: match[2]! };
}
