// Refused payment references, counted per API key (decisions.md 36): a notification quoting a code
// that names no reference it may pay, or quoting one with another amount, is what a guesser of codes
// produces. Past the limit, a key's notifications quoting a reference are refused before the
// reference is read, so a right code is refused as a wrong one is.
import { AppError, type ErrorCode } from '../../kernel/errors.js';
import type { Context } from '../../pipeline/context.js';

/** The refusals a guess produces; a paid or expired reference is a hit, not a miss, and counts nothing. */
const GUESS_REFUSALS: ReadonlySet<ErrorCode> = new Set(['PAYMENT_REFERENCE_NOT_FOUND', 'AMOUNT_MISMATCH']);

/** Whether a notification's body quotes a payment reference (the service's own member, notification.ts). */
function quotesPaymentReference(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const quoted = (body as Record<string, unknown>).paymentReference;
  return quoted !== undefined && quoted !== null;
}

/**
 * Runs `accept`, a notification of API key `keyId`, under the key's limit of refused references:
 * refused at once (RATE_LIMITED) past it when the body quotes a reference, and a guess's refusal counted.
 */
export async function withinReferenceGuesses<T>(
  limits: Pick<Context['credentialLimits'], 'refuseReferenceGuesser' | 'referenceRefused'>,
  keyId: string,
  body: unknown,
  accept: () => Promise<T>,
): Promise<T> {
  if (!quotesPaymentReference(body)) return accept();
  await limits.refuseReferenceGuesser(keyId);
  try {
    return await accept();
  } catch (error) {
    if (error instanceof AppError && GUESS_REFUSALS.has(error.code)) await limits.referenceRefused(keyId);
    throw error;
  }
}
