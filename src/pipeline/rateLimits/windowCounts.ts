// What a request limit's counter answers, whichever store keeps its counts (rateLimitStore.ts).

/** A limiter's answer: the points counted in the key's window, and the ms until it (or its block) ends. */
export interface WindowCount {
  consumed: number;
  msBeforeNext: number;
}

/** One limit's counters, whichever store holds them. */
export interface WindowCounter {
  /** Counts one event unless refused: `allowed` is false past the limit (and the key is blocked, when set). */
  consume(key: string): Promise<WindowCount & { allowed: boolean }>;
  /** Counts one event, never refused. */
  add(key: string): Promise<WindowCount>;
  /** The key's live count; null without one. */
  peek(key: string): Promise<WindowCount | null>;
}

/** Milliseconds as the whole seconds a client is told to wait (Retry-After): at least 1. */
export const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
