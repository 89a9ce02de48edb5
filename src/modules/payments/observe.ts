// What became of each payment request, told through a port in the context: the domain says what
// happened, whoever observes the service (ops/metrics.ts, installed by app.ts) counts it.
import { AppError, type ErrorCode } from '../../kernel/errors.js';

type PaymentChannel = 'in_store' | 'vendor';

/** The port: one call per payment request that reached the payment's own checks. */
export interface PaymentObserver {
  paymentRecorded(channel: PaymentChannel): void;
  /** A repeat answered with the first answer (same idempotency key or vendor reference); nothing written. */
  paymentReplayed(channel: PaymentChannel): void;
  /** Refused with a code the service states; nothing written. */
  paymentRefused(code: ErrorCode): void;
}

/** Observes nothing: a context built without an observer (a tool, a test). */
export const UNOBSERVED: PaymentObserver = {
  paymentRecorded: () => {},
  paymentReplayed: () => {},
  paymentRefused: () => {},
};

/** Runs one payment attempt and tells `observer` its outcome: recorded, replayed, or refused with a code. */
export async function observePaymentOutcome<T extends { replayed: boolean }>(
  observer: PaymentObserver,
  channel: PaymentChannel,
  attempt: () => Promise<T>,
): Promise<T> {
  let outcome: T;
  try {
    outcome = await attempt();
  } catch (error) {
    // Only refusals the service states (an AppError's code); a lost database is not a refusal.
    if (error instanceof AppError) observer.paymentRefused(error.code);
    throw error;
  }
  if (outcome.replayed) observer.paymentReplayed(channel);
  else observer.paymentRecorded(channel);
  return outcome;
}
