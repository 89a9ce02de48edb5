// A list read whole, one page after another (the REST door's list answers), may read each page's
// successor while the page itself is still being read and answered: the page being read leaves the
// next one's read in a slot; the next page takes it, and its reader checks that it starts where that
// page does (rows written in between can move a page's end), reading afresh otherwise. One slot, since
// the pages come one after another. The reads run with the list's signal (its client went away: they
// are cancelled on the server); when the list ends, what is still running is waited for, not
// cancelled: a cancel costs Postgres a connection, and what is left is at most one short read.

export class ReadAhead {
  private slot: { key: string; read: Promise<unknown> } | null = null;
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  /** `signal`: the list's client went away (a read then stops, and none starts). */
  constructor(readonly signal?: AbortSignal) {}

  /** The read left for `key`, out of the slot; null if none is there (the first page, or another list's). */
  take<T>(key: string): Promise<T> | null {
    if (this.slot?.key !== key) return null;
    const { read } = this.slot;
    this.slot = null;
    return read as Promise<T>;
  }

  /** Starts `read` and leaves it in the slot for `key`, in place of what was there. */
  leave(key: string, read: () => Promise<unknown>): void {
    if (this.closed || this.signal?.aborted) return;
    const started = read();
    const done = (): void => void this.running.delete(settled);
    const settled: Promise<void> = started.then(done, done);
    this.running.add(settled);
    this.slot = { key, read: started };
    // Nobody may take it: its failure is the taker's to see, never an unhandled rejection.
    started.catch(() => undefined);
  }

  /** Leaves nothing more, and waits for the reads still running. */
  async close(): Promise<void> {
    this.closed = true;
    this.slot = null;
    await Promise.all(this.running);
  }
}
