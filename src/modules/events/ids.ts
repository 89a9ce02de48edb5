// Event ids: "evt_" and 26 characters, the first 10 the time in milliseconds (base 62, so ids sort by
// the time they were made), the rest random: unique without asking the database, safe in a URL or a
// header (an event's id is the webhook-id of its deliveries).
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(value: bigint, width: number): string {
  let text = '';
  for (let i = 0; i < width; i++) {
    text = ALPHABET[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text;
}

export function newEventId(now: Date): string {
  const random = BigInt(`0x${randomBytes(12).toString('hex')}`);
  return `evt_${base62(BigInt(now.getTime()), 10)}${base62(random, 16)}`;
}

export const EVENT_ID = /^evt_[0-9A-Za-z]{26}$/;
