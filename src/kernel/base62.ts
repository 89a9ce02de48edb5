// Base 62 (0-9, A-Z, a-z): text safe in a URL, a header or a query string. What the service's generated
// identifiers are written in: API keys (their random body and checksum) and event ids (their time and
// random part).
import { randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// The largest multiple of 62 a byte holds: bytes from 248 up are skipped, so every character is equally likely.
const UNBIASED_BELOW = 248;

// Random bytes drawn a few thousand at a time, as crypto.randomUUID does: each draw is a system call,
// and a payment makes three event ids.
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** `value` (a whole number below 2^53) in base 62, `width` characters, zero-padded. */
export function base62(value: number, width: number): string {
  let text = '';
  for (let i = 0; i < width; i++) {
    text = ALPHABET[value % 62] + text;
    value = Math.floor(value / 62);
  }
  return text;
}

/** `length` base-62 characters from `nextByte`'s random bytes, each equally likely (rejection sampling). */
function sampled(length: number, nextByte: () => number): string {
  let text = '';
  while (text.length < length) {
    const byte = nextByte();
    if (byte < UNBIASED_BELOW) text += ALPHABET[byte % 62];
  }
  return text;
}

/** `length` random characters from the pooled bytes: for identifiers, which are not secrets. */
export function randomBase62(length: number): string {
  return sampled(length, randomByte);
}

/**
 * `length` random characters from bytes drawn for them alone and not kept: for secrets (API keys), whose
 * bytes must not sit in a pool beside the next ones for anything that reads the process's memory.
 */
export function secretBase62(length: number): string {
  let bytes = randomBytes(length * 2);
  let at = 0;
  return sampled(length, () => {
    if (at === bytes.length) {
      bytes = randomBytes(length);
      at = 0;
    }
    return bytes[at++]!;
  });
}
