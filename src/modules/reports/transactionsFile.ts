// The TRANSACTIONS file (docs/decisions.md 45, docs/integrating.md#report-files): exactly the items
// list-transactions answers for the window, in its order ((time, id), the listing's keyset), each the
// legacy item (src/contract/transaction.ts, the mapper of the list and of transaction.created) flattened
// into fixed columns by its field paths: amounts as the list writes them, its Unix seconds as ISO 8601.
import { legacyTransaction, legacyTransactionSourceOf } from '../../contract/transaction.js';
import type { DbOrTrx } from '../../db/knex.js';
import { legacyRecordOf } from '../transactions/events.js';
import { transactionsInWindow } from '../transactions/listing.js';
import type { TransactionWithLinkRows } from '../transactions/queries.js';
import { EVERY_COLUMN, type LinkColumns } from '../transactions/rows.js';
import { type CsvField, isoTime, text } from './csv.js';
import type { ReportSource } from './rows.js';

/** The file's columns: the legacy item's field paths, every type's in one row (a field a type lacks is empty). */
export const TRANSACTION_COLUMNS = [
  'type',
  'time',
  'amount',
  'currency',
  'merchant.id',
  'merchant.name',
  'financeOrder.id',
  'financeOrder.purchaseAmount',
  'financeOrder.financeAmount',
  'financeOrder.downPayment',
  'financeOrder.pricePreTax',
  'financeOrder.monthlyCost',
  'financeOrder.weeklyCost',
  'financeOrder.months',
  'salesClerk.id',
  'salesClerk.name',
  'device.phoneNumber',
  'device.simNumber',
  'device.imei',
  'device.family.id',
  'device.family.name',
  'device.model.id',
  'device.model.makeModel',
  'device.model.name',
  'payment.id',
  'payment.timestamp',
  'payment.amount',
  'adjustment.id',
  'adjustment.type',
  'adjustment.notes',
] as const;

/** The item's fields that are times (Unix seconds in the list). */
const TIME_COLUMNS = new Set<string>(['time', 'payment.timestamp']);

/** Every link the legacy item reads, whole (as transaction.created reads them). */
const EVERY_LINK: LinkColumns = {
  merchant: [EVERY_COLUMN],
  clerk: [EVERY_COLUMN],
  order: [EVERY_COLUMN],
  device: [EVERY_COLUMN],
  payment: [EVERY_COLUMN],
  adjustment: [EVERY_COLUMN],
};

/** Rows read per statement: one page is all the worker holds. */
export const TRANSACTION_PAGE = 1000;

function valueAt(item: unknown, path: string): unknown {
  let value = item;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** One legacy item as the file's record: numbers as the list writes them, text guarded, times ISO. */
export function transactionRecord(item: unknown): CsvField[] {
  return TRANSACTION_COLUMNS.map((column) => {
    const value = valueAt(item, column);
    if (value === undefined || value === null) return null;
    if (typeof value === 'number') return TIME_COLUMNS.has(column) ? isoTime(new Date(value * 1000)) : value;
    return text(String(value));
  });
}

/** The partner's transactions in [start, end), page by page along the listing's keyset. */
export function transactionsSource(db: DbOrTrx, partnerId: string, start: Date, end: Date): ReportSource {
  return {
    header: TRANSACTION_COLUMNS,
    async *pages() {
      let after: { timeUs: string; id: string } | undefined;
      for (;;) {
        const rows = await transactionsInWindow(db, {
          partnerId,
          start,
          end,
          filters: [],
          after,
          limit: TRANSACTION_PAGE,
          links: EVERY_LINK,
        });
        if (rows.length === 0) return;
        yield rows.map((row) =>
          transactionRecord(
            legacyTransaction(legacyTransactionSourceOf(legacyRecordOf(row as unknown as TransactionWithLinkRows))),
          ),
        );
        if (rows.length < TRANSACTION_PAGE) return;
        const last = rows[rows.length - 1]!;
        after = { timeUs: last.occurred_at_us, id: last.id };
      }
    },
  };
}
