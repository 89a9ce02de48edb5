// Fixed-window counters in this process's memory: each key's window starts at its first event and
// lasts `windowMs`; at most `limit` events are counted in it. Memory stays bounded: ended windows are
// dropped as new events arrive, and past `maxKeys` live windows the oldest are dropped too.

interface Window {
  startedAt: number;
  count: number;
}

/** Live windows kept per table at most; about 100 bytes each. */
export const MAX_TRACKED_KEYS = 100_000;

export class FixedWindowCounters {
  // Insertion order is window-start order (a restarted window is deleted and set again) and every
  // window has the same length, so the windows that ended are always at the front of the map.
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys = MAX_TRACKED_KEYS,
  ) {}

  /** Keys with a live window (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  /** Milliseconds until `key`'s window ends when it already holds `limit` events; null otherwise. */
  blockedFor(key: string, limit: number, now: number): number | null {
    const window = this.live(key, now);
    if (!window || window.count < limit) return null;
    return Math.max(1, window.startedAt + this.windowMs - now);
  }

  /** Counts one event for `key`, starting a window at `now` when it has none; the window's count. */
  add(key: string, now: number): number {
    const window = this.live(key, now);
    if (window) {
      window.count += 1;
      return window.count;
    }
    this.dropEnded(now);
    this.windows.delete(key);
    this.windows.set(key, { startedAt: now, count: 1 });
    for (const oldest of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(oldest);
    }
    return 1;
  }

  /** Counts one event for `key` unless its window holds `limit` already: then nothing is counted and the answer is the milliseconds until it ends. */
  take(key: string, limit: number, now: number): number | null {
    const blocked = this.blockedFor(key, limit, now);
    if (blocked === null) this.add(key, now);
    return blocked;
  }

  /** The events counted in `key`'s live window and the milliseconds until it ends; null without one. */
  usage(key: string, now: number): { count: number; endsInMs: number } | null {
    const window = this.live(key, now);
    return window ? { count: window.count, endsInMs: window.startedAt + this.windowMs - now } : null;
  }

  private live(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    return window && now < window.startedAt + this.windowMs ? window : undefined;
  }

  private dropEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (now < window.startedAt + this.windowMs) break;
      this.windows.delete(key);
    }
  }
}
