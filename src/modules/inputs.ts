// Checks on mutation inputs shared by the domain modules: each failure names the argument.
import { invalidArgument, notFound } from '../kernel/errors.js';
import { isDatabaseId } from '../kernel/ids.js';
import { MoneyError, parseAmount } from '../kernel/money.js';

/** An id that can name a record; anything else names none (RESOURCE_NOT_FOUND). */
export function requireId(resource: string, id: string): string {
  if (!isDatabaseId(id)) throw notFound(resource, id);
  return id;
}

/** Text with something in it, trimmed, at most `max` characters. */
export function requireText(argument: string, value: string, max = 255): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalidArgument(argument, 'must not be empty');
  if (trimmed.length > max) throw invalidArgument(argument, `must be at most ${max} characters`);
  return trimmed;
}

export function optionalText(argument: string, value: string | null | undefined, max = 255): string | null {
  return value == null || value.trim() === '' ? null : requireText(argument, value, max);
}

/** The largest amount a provisioning input takes, in minor units: far below int8, so terms times months still fit. */
const MAX_AMOUNT_MINOR = 10n ** 15n;

/** An amount of `currency` in minor units; too many decimals, bad syntax or a huge value is INVALID_ARGUMENT. */
export function requireAmount(
  argument: string,
  text: string,
  currency: string,
  rule: 'positive' | 'non-negative' | 'non-zero',
): bigint {
  let minor: bigint;
  try {
    minor = parseAmount(text, currency);
  } catch (error) {
    if (error instanceof MoneyError) throw invalidArgument(argument, `is not acceptable: ${error.message}`);
    throw error;
  }
  if (minor > MAX_AMOUNT_MINOR || minor < -MAX_AMOUNT_MINOR)
    throw invalidArgument(argument, `must be at most ${MAX_AMOUNT_MINOR} minor units`);
  if (rule === 'positive' && minor <= 0n) throw invalidArgument(argument, 'must be more than zero');
  if (rule === 'non-negative' && minor < 0n) throw invalidArgument(argument, 'must not be negative');
  if (rule === 'non-zero' && minor === 0n) throw invalidArgument(argument, 'must not be zero');
  return minor;
}

/** Whether a database error is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown })?.code === '23505';
}

/**
 * Whether a database error is a unique violation of the constraint `name`. A Citus worker's error names
 * its shard's constraint, the table's name with the shard's id after it ("idempotency_keys_pkey_102140"),
 * in its message alone: the coordinator passes no constraint field on.
 */
export function violatesUnique(error: unknown, name: string): boolean {
  if (!isUniqueViolation(error)) return false;
  const field = (error as { constraint?: unknown }).constraint;
  const named =
    typeof field === 'string'
      ? field
      : /violates unique constraint "([^"]+)"/.exec(String((error as { message?: unknown }).message))?.[1];
  if (named === undefined) return false;
  return named === name || (named.startsWith(`${name}_`) && /^\d+$/.test(named.slice(name.length + 1)));
}
