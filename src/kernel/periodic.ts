// A job run at once and then every `everyMs` until stopped: the retention jobs' one schedule. The timer
// does not keep the process alive; a failed run is reported and tried again at the next tick.

/** Runs `job` now and every `everyMs`; stop() clears the timer and waits for a run under way. */
export function runPeriodically(
  job: () => Promise<unknown>,
  options: { everyMs: number; onError: (error: unknown) => void },
): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = job().then(() => {}, options.onError);
  };
  tick();
  const timer = setInterval(tick, options.everyMs);
  timer.unref();
  return {
    // Waits for a run under way, so the database can be closed after it.
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
