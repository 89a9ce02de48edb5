// transaction.created: the transactions a change wrote, read back with their links and written as
// list-transactions writes them (src/contract/transaction.ts), so both are the same JSON.
import { legacyTransaction, legacyTransactionSourceOf } from '../../contract/transaction.js';
import type { DbOrTrx } from '../../db/knex.js';
import type { NewEvent } from '../events/rows.js';
import { legacyOrderFiguresOf } from '../financeOrders/events.js';
import { type TransactionWithLinkRows, transactionsWithLinks } from './queries.js';

/** A transaction read with its links, as the contract's record of it (its order's figures computed here). */
export function legacyRecordOf(row: TransactionWithLinkRows) {
  const { order, merchant, ...links } = row.links;
  return { ...row, links: { ...links, merchant: merchant!, order: order && legacyOrderFiguresOf(order) } };
}

/** transaction.created for each transaction named (by id or by its payment), read with its links. */
export async function transactionCreatedEvents(
  trx: DbOrTrx,
  partnerId: string,
  by: Parameters<typeof transactionsWithLinks>[2],
): Promise<NewEvent[]> {
  const rows = await transactionsWithLinks(trx, partnerId, by);
  return rows.map((row) => ({
    type: 'transaction.created',
    occurredAt: row.occurred_at,
    data: legacyTransaction(legacyTransactionSourceOf(legacyRecordOf(row))),
  }));
}
