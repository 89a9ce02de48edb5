// Making a repeated request harmless: a repeat finds the first request's record and replays its
// receipt (same request) or is refused with IDEMPOTENCY_CONFLICT (different request). A partner's
// Idempotency-Key (in-store payments) is claimed by inserting its record in the payment's own
// statement: of two requests with one key at once, the second's insert waits for the first to commit,
// then fails on the primary key, writing nothing, and the second reads the record (inStore.ts). A
// vendor's reference (notifications) is claimed with a transaction-scoped advisory lock, so two
// notifications with one reference take turns.
import { createHash } from 'node:crypto';
import type { DbOrTrx } from '../../db/knex.js';
import { idempotencyConflict, invalidArgument } from '../../kernel/errors.js';
import { canonicalNumber, isJsonNumber, type JsonNumber, numberText, plainJson } from '../../kernel/losslessJson.js';
import { amountIdentity } from '../../kernel/money.js';
import type { CommittedEvent } from '../events/log.js';
import type { RecordedPayment } from './record.js';
import type { PaymentReceiptSnapshot, PaymentRow } from './rows.js';

/** Idempotency keys are kept at least this long (decisions.md 6). */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What an Idempotency-Key may be, as the doors document it. */
export const IDEMPOTENCY_KEY_FORMAT = '1 to 255 printable ASCII characters';
// Printable ASCII, as HTTP headers carry it; long enough for a UUID or a POS reference.
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** A partner's Idempotency-Key, checked for both doors (INVALID_ARGUMENT on idempotencyKey); null: none given. */
export function requireIdempotencyKey(key: string | null | undefined): string | null {
  if (key == null) return null;
  if (!IDEMPOTENCY_KEY.test(key)) throw invalidArgument('idempotencyKey', `must be ${IDEMPOTENCY_KEY_FORMAT}`);
  return key;
}

/**
 * JSON with object keys sorted, so equal requests hash equally whatever their member order; numbers
 * written by `number` (lossless-json numbers as their exact value; JavaScript numbers as given).
 */
function canonicalJson(value: unknown, number: (value: JsonNumber | number) => string): string {
  if (isJsonNumber(value) || typeof value === 'number') return number(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, number)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item, number)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** How a request was hashed before fingerprints (v2): JSON.parse's numbers, every field as given. */
function legacyRequestHash(request: unknown): string {
  return sha256(canonicalJson(plainJson(request), (value) => JSON.stringify(value)));
}

/** A payment request as idempotency compares it: the amount and currency as decimal text and code, the rest as sent. */
export type PaymentRequestForm = Record<string, unknown> & { amount: string; currency: string };

/**
 * What is stored of a request and compared with a repeat. `hash` is the fingerprint; `legacyHash` is
 * the hash this request would have had before fingerprints, so keys and references stored then still
 * replay (a stored hash cannot be recomputed). The two never coincide: fingerprints start "v2:".
 */
export interface RequestFingerprint {
  hash: string;
  legacyHash: string;
}

/**
 * THE rule of sameness for both doors (an in-store Idempotency-Key, a vendor reference): two payment
 * requests are the same when their canonical forms are equal. The amount counts by its value in the
 * currency's minor units (18 == 18.00 == "18.00", money.ts amountIdentity); the currency as given (the
 * service takes ISO codes in capitals only, and normalises none); every other field as given, numbers
 * by exact value (1.50 == 1.5), member order ignored. `asHashedBefore` is the request as the service
 * hashed it before this rule (see RequestFingerprint).
 */
export function fingerprintPaymentRequest(request: PaymentRequestForm, asHashedBefore: unknown): RequestFingerprint {
  const canonical = canonicalJson({ ...request, amount: amountIdentity(request.amount, request.currency) }, (value) =>
    canonicalNumber(numberText(value)),
  );
  return { hash: `v2:${sha256(canonical)}`, legacyHash: legacyRequestHash(asHashedBefore) };
}

/** Whether a stored request hash is this request's (by the rule above, or as stored before it). */
function sameRequest(storedHash: string, request: RequestFingerprint): boolean {
  return storedHash === request.hash || storedHash === request.legacyHash;
}

async function lock(trx: DbOrTrx, name: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);
}

export interface Claimed {
  receipt: PaymentReceiptSnapshot;
  replayed: boolean;
  /** The payment's row when this request recorded it; a replay has only the receipt's paymentId. */
  payment?: PaymentRow;
  /** The events written with it (a replay writes none). */
  events?: readonly CommittedEvent[];
}

/** The answer to a repeat of a stored request: its receipt again, or IDEMPOTENCY_CONFLICT naming `what` was reused. */
export function replayOf(
  stored: { request_hash: string; response_body: PaymentReceiptSnapshot },
  request: RequestFingerprint,
  what: string,
): Claimed {
  if (!sameRequest(stored.request_hash, request)) throw idempotencyConflict(what);
  return { receipt: stored.response_body, replayed: true };
}

/** Runs `record` once per (vendor, reference); a repeat replays the stored receipt. References never expire. */
export async function withVendorReference(
  trx: DbOrTrx,
  claim: { vendorId: string; reference: string; request: RequestFingerprint },
  record: () => Promise<RecordedPayment>,
): Promise<Claimed> {
  await lock(trx, `vendor-reference:${claim.vendorId}:${claim.reference}`);
  const existing = await trx('vendor_notifications')
    .where({ vendor_id: claim.vendorId, reference: claim.reference })
    .first();
  if (existing) return replayOf(existing, claim.request, `the reference ${JSON.stringify(claim.reference)}`);
  const { payment, receipt, events } = await record();
  await trx('vendor_notifications').insert({
    vendor_id: claim.vendorId,
    reference: claim.reference,
    request_hash: claim.request.hash,
    partner_id: receipt.partnerId,
    payment_id: receipt.paymentId,
    response_body: JSON.stringify(receipt),
  });
  return { receipt, payment, events, replayed: false };
}
