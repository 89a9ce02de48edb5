// A payment taken in a store (record-customer-payment, recordInStorePayment), in one database
// transaction like a vendor's notification (notification.ts): the store and the clerk must be the
// key's partner's own (else "not found"), and with an Idempotency-Key a repeat replays the first
// receipt instead of paying twice.
import type { Db } from '../../db/knex.js';
import { notFound } from '../../errors.js';
import { normaliseDecimal } from '../../money.js';
import { type Claimed, fingerprintPaymentRequest, withIdempotencyKey } from './idempotency.js';
import { merchantAndClerkFound } from './queries.js';
import { recordPayment } from './record.js';

export interface InStorePaymentRequest {
  partnerId: string;
  merchantId: string;
  clerkId: string;
  financeOrderId: string;
  /** Decimal text as the store gave it. */
  amount: string;
  currency: string;
  idempotencyKey: string | null;
}

export function recordInStorePayment(db: Db, request: InStorePaymentRequest, now: Date): Promise<Claimed> {
  const { partnerId, merchantId, clerkId, financeOrderId, amount, currency, idempotencyKey } = request;
  return db.transaction(async (trx) => {
    const record = async () => {
      const found = await merchantAndClerkFound(trx, partnerId, { merchantId, clerkId });
      if (found.merchant === null) throw notFound('merchant', merchantId);
      if (found.clerk === null) throw notFound('clerk', clerkId);
      return recordPayment(
        trx,
        {
          order: { partnerId, id: financeOrderId },
          amount,
          currency,
          source: { channel: 'in_store', merchantId, clerkId, merchantName: found.merchant, clerkName: found.clerk },
        },
        now,
      );
    };
    if (idempotencyKey === null) return { ...(await record()), replayed: false };
    // The fields named as they were hashed when the first idempotency records were stored.
    const fields = { merchant: merchantId, clerk: clerkId, order: financeOrderId, amount, currency };
    const fingerprint = fingerprintPaymentRequest(fields, { ...fields, amount: normaliseDecimal(amount) });
    return withIdempotencyKey(trx, { partnerId, key: idempotencyKey, request: fingerprint, now }, record);
  });
}
