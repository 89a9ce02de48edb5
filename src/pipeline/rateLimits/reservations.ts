// The places in API keys' counts that Redis counted for this instance ahead of their requests
// (decisions.md 53): a request of a key from an address takes the next reserved place from memory,
// and only when none is left does it ask Redis again, so a busy key costs a round trip per reserve
// instead of one per request. Held per client address, so a reservation made for one address is
// never spent by another, and an address that fails authentication here loses its own at once.

import type { WindowCount } from './windowCounts.js';

/** Places `next` to `last` of a key's count in its window, usable until `endsAt` (this clock's ms). */
interface Reservation {
  next: number;
  last: number;
  endsAt: number;
}

/** Reservations held at once past which a new one first drops those whose window has ended. */
const SWEEP_PAST = 4096;

export class Reservations {
  /** Address key ('' without an address) → the key's counter key → what is reserved, or being reserved. */
  private readonly held = new Map<string, Map<string, Reservation>>();
  private readonly asking = new Map<string, Promise<unknown>>();
  private size = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** The next reserved place of `key` for `address`, with the ms left of its window; null when none is left. */
  take(address: string, key: string): WindowCount | null {
    const ofAddress = this.held.get(address);
    const reservation = ofAddress?.get(key);
    if (!ofAddress || !reservation) return null;
    const msBeforeNext = reservation.endsAt - this.clock();
    if (msBeforeNext <= 0 || reservation.next > reservation.last) {
      this.drop(ofAddress, address, key);
      return null;
    }
    const consumed = reservation.next++;
    if (reservation.next > reservation.last) this.drop(ofAddress, address, key);
    return { consumed, msBeforeNext };
  }

  /**
   * Places `first` to `last` of `key`'s count for `address`, counted in a window that ends `msLeft`
   * after `askedAt` (this clock's reading before Redis was asked: earlier than Redis's own end).
   */
  hold(address: string, key: string, first: number, last: number, askedAt: number, msLeft: number): void {
    if (first > last) return;
    if (this.size >= SWEEP_PAST) this.sweep();
    let ofAddress = this.held.get(address);
    if (!ofAddress) {
      ofAddress = new Map();
      this.held.set(address, ofAddress);
    }
    if (!ofAddress.has(key)) this.size++;
    ofAddress.set(key, { next: first, last, endsAt: askedAt + msLeft });
  }

  /** Every reservation of `address` let go (it failed authentication here). */
  dropAddress(address: string): void {
    const ofAddress = this.held.get(address);
    if (!ofAddress) return;
    this.size -= ofAddress.size;
    this.held.delete(address);
  }

  /**
   * Runs `ask` (the key's admission in Redis) unless one for the same key and address is under way;
   * then the caller waits for that one instead (and takes again). Answers `ask`'s answer, or null
   * after waiting for another's.
   */
  async once<T>(address: string, key: string, ask: () => Promise<T>): Promise<T | null> {
    const id = `${address}\n${key}`;
    const under = this.asking.get(id);
    if (under) {
      await under.catch(() => undefined);
      return null;
    }
    const asked = ask();
    this.asking.set(id, asked);
    try {
      return await asked;
    } finally {
      this.asking.delete(id);
    }
  }

  private drop(ofAddress: Map<string, Reservation>, address: string, key: string): void {
    if (!ofAddress.delete(key)) return;
    this.size--;
    if (ofAddress.size === 0) this.held.delete(address);
  }

  private sweep(): void {
    const now = this.clock();
    for (const [address, ofAddress] of this.held) {
      for (const [key, reservation] of ofAddress) if (reservation.endsAt <= now) this.drop(ofAddress, address, key);
    }
  }
}
