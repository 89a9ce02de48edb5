// The shutdown's steps, one after another, within SHUTDOWN_TIMEOUT_MS (decisions.md 27): a step that hangs
// (a request that never ends, a pool that never closes) ends the process with the step's name logged,
// instead of a silent wait for the platform's SIGKILL.
import type { Logger } from 'pino';

export interface ShutdownStep {
  /** What the shutdown is waiting for while the step runs, as the log line says it. */
  name: string;
  run: () => Promise<unknown>;
}

/** done: every step finished; failed: a step threw (logged, the next ones still ran); timed out: one hung. */
type ShutdownOutcome = 'done' | 'failed' | 'timed out';

export async function runShutdownSteps(
  steps: readonly ShutdownStep[],
  options: { timeoutMs: number; logger: Pick<Logger, 'error'> },
): Promise<ShutdownOutcome> {
  let waitingFor = steps[0]?.name ?? 'nothing';
  let failed = false;
  const work = (async () => {
    for (const step of steps) {
      waitingFor = step.name;
      try {
        await step.run();
      } catch (error) {
        failed = true;
        options.logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), options.timeoutMs);
  });
  const finished = work.then((): ShutdownOutcome => (failed ? 'failed' : 'done'));
  const outcome = await Promise.race([finished, expired]);
  clearTimeout(timer);
  if (outcome === 'timed out') {
    options.logger.error(
      { step: waitingFor, shutdownTimeoutMs: options.timeoutMs },
      `shutdown did not finish within SHUTDOWN_TIMEOUT_MS: still waiting for ${waitingFor}`,
    );
  }
  return outcome;
}
