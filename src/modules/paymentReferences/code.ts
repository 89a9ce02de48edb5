// The code of a payment reference (decisions.md 17): Crockford's base32 alphabet, which has no I, L,
// O or U, so no two characters sound or look alike; 8 random characters and a check character
// (Luhn mod 32), so a code read out wrong by one character, or with two neighbours swapped, is almost
// always refused before any lookup.
import { randomInt } from 'node:crypto';

export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Random characters in a code; the check character follows them. */
const CODE_RANDOM_LENGTH = 8;
export const CODE_LENGTH = CODE_RANDOM_LENGTH + 1;
/** The most of a code the service reads (spaces and hyphens included): what a notification holds it to. */
const MAX_CODE_INPUT_LENGTH = 64;

const BASE = CODE_ALPHABET.length;

/** Luhn mod N over `body` (characters of the alphabet): the character that makes the whole code check. */
export function checkCharacterOf(body: string): string {
  let sum = 0;
  // From the right, every other character's value doubled, its two base-32 digits added.
  for (let index = body.length - 1, double = true; index >= 0; index--, double = !double) {
    let value = CODE_ALPHABET.indexOf(body[index]!);
    if (double) {
      value *= 2;
      value = Math.floor(value / BASE) + (value % BASE);
    }
    sum += value;
  }
  return CODE_ALPHABET[(BASE - (sum % BASE)) % BASE]!;
}

/** A new code: 8 random characters and their check character. */
export function newCode(): string {
  let body = '';
  for (let index = 0; index < CODE_RANDOM_LENGTH; index++) body += CODE_ALPHABET[randomInt(BASE)];
  return body + checkCharacterOf(body);
}

/**
 * A code as a person may type it, in its one stored form, or null when it cannot be a code: case,
 * spaces and hyphens ignored, O read as 0 and I, L as 1 (Crockford's decoding), the check character
 * verified.
 */
export function normaliseCode(text: string): string | null {
  if (text.length > MAX_CODE_INPUT_LENGTH) return null;
  const code = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== CODE_LENGTH) return null;
  for (const character of code) if (!CODE_ALPHABET.includes(character)) return null;
  const body = code.slice(0, CODE_RANDOM_LENGTH);
  return checkCharacterOf(body) === code[CODE_RANDOM_LENGTH] ? code : null;
}
