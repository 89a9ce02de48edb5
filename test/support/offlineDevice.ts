// A device checking offline unlock codes, written from docs/decisions.md 21 alone: its own HMAC,
// truncation, check digit and counter rule, nothing of src/modules/unlockCodes.
import { createHmac } from 'node:crypto';

export const EPOCH = 1_767_225_600; // 2026-01-01T00:00:00Z
export const FOR_GOOD = 999_999;

export type Typed = 'ACCEPTED' | 'MISTYPED' | 'REFUSED';

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export class OfflineDevice {
  readonly unlockKey: Buffer;
  /** The greatest counter accepted (0: none yet). */
  lastCounter = 0;
  /** Unix seconds, or 'FOR_GOOD'; null before any code. */
  unlockedUntil: number | 'FOR_GOOD' | null = null;
  failedAttempts = 0;

  constructor(
    credential: string,
    readonly tag: string,
  ) {
    this.unlockKey = createHmac('sha256', Buffer.from(credential, 'utf8'))
      .update(Buffer.from('dfs-unlock-key-v1', 'ascii'))
      .digest();
  }

  private macDigits(until: number, counter: number): string {
    const tag = Buffer.from(this.tag, 'utf8');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(tag.length);
    const untilBytes = Buffer.alloc(8);
    untilBytes.writeBigUInt64BE(BigInt(until));
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    const mac = createHmac('sha256', this.unlockKey)
      .update(Buffer.concat([Buffer.from('dfs-unlock-code-v1', 'ascii'), length, tag, untilBytes, counterBytes]))
      .digest();
    const o = mac[31]! & 0x0f;
    const p = (mac[o]! & 0x7f) * 2 ** 24 + mac[o + 1]! * 2 ** 16 + mac[o + 2]! * 2 ** 8 + mac[o + 3]!;
    return String(p % 1_000_000).padStart(6, '0');
  }

  type(typed: string): Typed {
    const code = typed.replace(/[\s-]/g, '');
    if (!/^[0-9]{15}$/.test(code) || !luhnValid(code)) return 'MISTYPED';
    const c = Number(code.slice(0, 2));
    const hours = Number(code.slice(2, 8));
    const next = this.lastCounter + 1;
    const counter = next + ((((c - next) % 100) + 100) % 100);
    const until = EPOCH + hours * 3600;
    if (this.macDigits(until, counter) !== code.slice(8, 14)) {
      this.failedAttempts++;
      return 'REFUSED';
    }
    this.lastCounter = counter;
    this.unlockedUntil = hours === FOR_GOOD ? 'FOR_GOOD' : until;
    return 'ACCEPTED';
  }
}
