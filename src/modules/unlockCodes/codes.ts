// Offline unlock codes (docs/decisions.md 21): 15 digits a customer types on a device with no network,
// which the device checks with its own unlock key and which say until when it may be used. Pure: the
// service makes codes here; the device side is written from the documentation alone
// (test/devices/unlock-codes.test.ts).
import { createHmac } from 'node:crypto';

/** The code epoch: deadlines are counted in whole hours from 2026-01-01T00:00:00Z (Unix seconds). */
const UNLOCK_CODE_EPOCH_SECONDS = 1_767_225_600;
/** The hours field that means "unlocked for good" (the order is paid off). */
const FOR_GOOD_HOURS = 999_999;

const HOUR_SECONDS = 3600;
const DOMAIN = Buffer.from('dfs-unlock-code-v1', 'ascii');

/** The hours field for a deadline: rounded up, so a code never unlocks for less than the service's lockAt. */
export function hoursFieldOf(lockAtSeconds: number): number {
  if (!Number.isFinite(lockAtSeconds)) throw new RangeError('lockAt must be a finite number of Unix seconds');
  const hours = Math.ceil((lockAtSeconds - UNLOCK_CODE_EPOCH_SECONDS) / HOUR_SECONDS);
  // A deadline before the epoch (never a payment's: the epoch is before this service's first) is the epoch itself.
  return Math.min(Math.max(hours, 0), FOR_GOOD_HOURS - 1);
}

/** The bytes the MAC is taken over: domain, tag length and tag, the deadline in Unix seconds, the full counter. */
function macMessage(deviceTag: string, hours: number, counter: number): Buffer {
  const tag = Buffer.from(deviceTag, 'utf8');
  if (tag.length > 0xffff) throw new RangeError('the device tag is too long for an unlock code');
  const fixed = Buffer.alloc(2 + 8 + 4);
  fixed.writeUInt16BE(tag.length, 0);
  fixed.writeBigUInt64BE(BigInt(UNLOCK_CODE_EPOCH_SECONDS + hours * HOUR_SECONDS), 2);
  fixed.writeUInt32BE(counter, 10);
  return Buffer.concat([DOMAIN, fixed.subarray(0, 2), tag, fixed.subarray(2)]);
}

/** HMAC-SHA256, truncated as HOTP does (RFC 4226 5.3, the offset from the last of the 32 bytes), to 6 digits. */
function macDigits(unlockKeyHex: string, message: Buffer): string {
  if (!/^[0-9a-f]{64}$/i.test(unlockKeyHex)) throw new RangeError('an unlock key is 64 hex digits');
  const mac = createHmac('sha256', Buffer.from(unlockKeyHex, 'hex')).update(message).digest();
  const offset = mac[31]! & 0x0f;
  const truncated = mac.readUInt32BE(offset) & 0x7fff_ffff;
  return String(truncated % 1_000_000).padStart(6, '0');
}

/** The Luhn check digit of a string of digits (the credit-card rule). */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // From the rightmost digit, every other one doubled: the rightmost itself first, as the check digit will follow it.
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

function codeOf(unlockKeyHex: string, deviceTag: string, hours: number, counter: number): string {
  if (!Number.isSafeInteger(counter) || counter < 1 || counter > 0xffff_ffff)
    throw new RangeError('an unlock code counter is a whole number from 1 to 2^32 - 1');
  const body =
    String(counter % 100).padStart(2, '0') +
    String(hours).padStart(6, '0') +
    macDigits(unlockKeyHex, macMessage(deviceTag, hours, counter));
  return body + luhnCheckDigit(body);
}

/** The code for `lockAt` (Unix seconds) and `counter`, by the documented algorithm. */
export function unlockCodeOf(unlockKeyHex: string, deviceTag: string, lockAtSeconds: number, counter: number): string {
  return codeOf(unlockKeyHex, deviceTag, hoursFieldOf(lockAtSeconds), counter);
}

/** The code of a payment that paid its order off: unlocked for good. */
export function releaseCodeOf(unlockKeyHex: string, deviceTag: string, counter: number): string {
  return codeOf(unlockKeyHex, deviceTag, FOR_GOOD_HOURS, counter);
}

/** A code as a screen or a receipt shows it: three groups of five digits. */
export function groupedUnlockCode(code: string): string {
  return code.replace(/(\d{5})(?=\d)/g, '$1 ');
}
