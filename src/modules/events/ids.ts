// Event ids: "evt_" and 26 characters, the first 10 the time in milliseconds (base 62, so ids sort by
// the time they were made), the rest random: unique without asking the database, safe in a URL or a
// header (an event's id is the webhook-id of its deliveries).
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARACTERS = 16;
// The largest multiple of 62 a byte holds: bytes from 248 up are skipped, so every character is equally likely.
const UNBIASED_BELOW = 248;

// Random bytes drawn a few thousand at a time, as crypto.randomUUID does: each draw is a system call,
// and a payment makes three ids.
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
function base62(value: number, width: number): string {
  let text = '';
  for (let i = 0; i < width; i++) {
    text = ALPHABET[value % 62] + text;
    value = Math.floor(value / 62);
  }
  return text;
}

export function newEventId(now: Date): string {
  let random = '';
  while (random.length < RANDOM_CHARACTERS) {
    const byte = randomByte();
    if (byte < UNBIASED_BELOW) random += ALPHABET[byte % 62];
  }
  return `evt_${base62(now.getTime(), 10)}${random}`;
}

export const EVENT_ID = /^evt_[0-9A-Za-z]{26}$/;
