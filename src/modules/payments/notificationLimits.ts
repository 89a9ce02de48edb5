// Limits the service holds for every notification, whatever a vendor's schema allows, checked before
// the schema runs: no vendor schema ever sees a body nested deeper, with more values, or with a
// longer string than these. A reference is stored and indexed, a locator is looked up, and the whole
// body is hashed for idempotency; the rest bounds the work a vendor schema's keywords can be made to do.
import { isJsonNumber, MAX_JSON_DEPTH } from '../../kernel/losslessJson.js';

/** The REST door refuses deeper bodies already (losslessJson.ts); /graphql's JSON variable meets it here. */
const MAX_DEPTH = MAX_JSON_DEPTH;
const MAX_VALUES = 1000;
const MAX_STRING_LENGTH = 1000;
const MAX_REFERENCE_LENGTH = 255;
export const MAX_LOCATOR_LENGTH = 64;

export const LOCATORS = ['deviceTag', 'imei', 'phoneNumber', 'financeOrderId'] as const;

/** The limit of a top-level field the service reads itself; every other string has the general one. */
function lengthLimitOf(path: readonly string[]): number {
  if (path.length !== 1) return MAX_STRING_LENGTH;
  if (path[0] === 'reference') return MAX_REFERENCE_LENGTH;
  // A payment reference's code, read forgivingly (spaces, hyphens), is held like a locator.
  if (path[0] === 'paymentReference') return MAX_LOCATOR_LENGTH;
  return (LOCATORS as readonly string[]).includes(path[0]!) ? MAX_LOCATOR_LENGTH : MAX_STRING_LENGTH;
}

const named = (path: readonly string[]) => (path.length ? path.join('.') : 'the body');

/**
 * What in `body` breaks the service's limits, walked without recursion (a hostile body cannot blow
 * the stack) and stopping at the first count or depth past its limit; empty when within them.
 */
export function notificationLimitProblems(body: unknown): string[] {
  const problems: string[] = [];
  let values = 0;
  const pending: Array<[unknown, string[]]> = [[body, []]];
  while (pending.length) {
    const [node, path] = pending.pop()!;
    if (++values > MAX_VALUES) return [`the body holds more than ${MAX_VALUES} values`];
    if (typeof node === 'string') {
      const limit = lengthLimitOf(path);
      if (node.length > limit) problems.push(`${named(path)} must be at most ${limit} characters`);
      continue;
    }
    // A number (a lossless one from the REST door too) is a leaf.
    if (typeof node !== 'object' || node === null || isJsonNumber(node)) continue;
    if (path.length >= MAX_DEPTH) return [`the body nests more than ${MAX_DEPTH} levels deep`];
    for (const [name, child] of Object.entries(node)) {
      if (name.length > MAX_STRING_LENGTH)
        problems.push(`${named(path)} has a member name longer than ${MAX_STRING_LENGTH} characters`);
      else pending.push([child, [...path, name]]);
    }
  }
  return problems;
}
