// The one loop that runs the service's background work (decisions.md 40), after graphile-worker's split:
// the loop knows how to run a task, never what a task does. Each task claims a batch from its own table
// under a lease (its claim statement: a row's claimed_until, or a transaction-scoped advisory lock that
// dies with its connection), works it, and answers how many items it took; the loop
// - runs a task again at once while its batches come back full, then waits;
// - wakes it on a message of the event log's channel it asks for (one LISTEN for every task), and polls
//   it every pollMs as a safety net (a message missed, a retry come due, an hourly chore);
// - backs off after a failed batch (pollMs doubled per failure up to maxBackoffMs, then pollMs again);
// - sheds load: a task that yields to requests waits while the requests' pool has callers waiting;
// - stops cleanly: nothing more is claimed, the batches under way finish, each task's drain runs.
import type { Logger } from 'pino';
import type { Db } from '../db/knex.js';
import { type ChannelListener, listenToChannel } from '../db/notifications.js';
import { connectionWaiters } from '../db/poolCounts.js';
import { EVENTS_CHANNEL } from '../modules/events/publish.js';

export interface JobTask {
  /** As the logs name it. */
  name: string;
  /** One batch: claim, work, record. Answers the items taken; `batchSize` of them: more may wait. */
  runBatch: () => Promise<number>;
  batchSize: number;
  /** The safety net's interval (an hourly chore: an hour). */
  pollMs: number;
  /** Which messages of the event log's channel wake it (none: it runs on its poll alone). */
  wakesOn?: (message: string) => boolean;
  /** It waits while requests wait for a connection of the pool (a chore that can come later). */
  yieldsToRequests?: boolean;
  /** After the last batch at stop: what it still has under way (posts in flight). */
  drain?: () => Promise<void>;
  /** At stop, before the batch under way is awaited: asks a long batch to end early (a report run put back). */
  abort?: () => void;
}

export interface JobLoopSettings {
  /** The longest wait after failures. */
  maxBackoffMs: number;
  /** How long a shed task waits before looking at the pool again. */
  shedMs: number;
  /** The wait before listening again after the LISTEN connection was lost. */
  relistenMs: number;
}

export const DEFAULT_JOB_LOOP: JobLoopSettings = { maxBackoffMs: 60_000, shedMs: 250, relistenMs: 1000 };

export interface JobLoop {
  /** Runs the named task (every task: none named) as soon as its batch under way ends. */
  wake: (name?: string) => void;
  /** Claims nothing more; resolves once every batch under way has ended and every task drained. */
  stop: () => Promise<void>;
}

/** The wait after `failures` failed batches in a row. */
export const backoffMs = (pollMs: number, failures: number, maxMs: number) =>
  failures === 0 ? pollMs : Math.min(maxMs, Math.max(pollMs, 100) * 2 ** (failures - 1));

interface Runner {
  task: JobTask;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  again: boolean;
  failures: number;
}

export function startJobLoop(
  deps: {
    db: Db;
    logger: Pick<Logger, 'warn' | 'error'>;
    tasks: readonly JobTask[];
    /** Whether requests wait for a connection (the pool's waiters by default). */
    requestsWaiting?: () => boolean;
  },
  overrides: Partial<JobLoopSettings> = {},
): JobLoop {
  const settings = { ...DEFAULT_JOB_LOOP, ...overrides };
  let stopped = false;
  const runners = deps.tasks.map(
    (task): Runner => ({ task, timer: undefined, running: undefined, again: false, failures: 0 }),
  );
  const requestsWaiting = deps.requestsWaiting ?? (() => connectionWaiters(deps.db) > 0);

  const schedule = (runner: Runner, delayMs: number) => {
    if (stopped) return;
    if (runner.timer) clearTimeout(runner.timer);
    runner.timer = setTimeout(() => run(runner), delayMs);
    runner.timer.unref();
  };

  function run(runner: Runner): void {
    runner.timer = undefined;
    if (stopped || runner.running) return;
    if (runner.task.yieldsToRequests && requestsWaiting()) {
      schedule(runner, settings.shedMs);
      return;
    }
    runner.running = (async () => {
      let full = false;
      try {
        full = (await runner.task.runBatch()) >= runner.task.batchSize;
        runner.failures = 0;
      } catch (error) {
        runner.failures++;
        deps.logger.warn({ err: error, task: runner.task.name, failures: runner.failures }, 'a background task failed');
      }
      return full;
    })().then((full) => {
      runner.running = undefined;
      const now = full || runner.again;
      runner.again = false;
      const wait = runner.failures > 0 ? backoffMs(runner.task.pollMs, runner.failures, settings.maxBackoffMs) : 0;
      schedule(runner, now && runner.failures === 0 ? 0 : wait || runner.task.pollMs);
    });
  }

  const wakeRunner = (runner: Runner) => {
    if (stopped) return;
    // A task backing off after failures is not hurried by messages.
    if (runner.failures > 0) return;
    if (runner.running) runner.again = true;
    else schedule(runner, 0);
  };

  // One LISTEN for every task that wakes on a message; listened again after a loss, every such task woken then.
  const listening = runners.filter((runner) => runner.task.wakesOn);
  let listener: ChannelListener | null = null;
  let relisten: NodeJS.Timeout | undefined;
  const listen = async () => {
    relisten = undefined;
    if (stopped || listening.length === 0) return;
    try {
      const opened = await listenToChannel(deps.db, EVENTS_CHANNEL, {
        onPayload: (message) => {
          for (const runner of listening) if (runner.task.wakesOn!(message)) wakeRunner(runner);
        },
        onLost: (error) => {
          listener = null;
          if (stopped) return;
          deps.logger.warn(
            { err: error },
            'the job loop lost its listening connection: polling until it listens again',
          );
          listenLater();
        },
      });
      if (stopped) return void (await opened.close());
      listener = opened;
      for (const runner of listening) wakeRunner(runner);
    } catch (error) {
      if (stopped) return;
      deps.logger.warn({ err: error }, 'the job loop could not listen to the event log: polling, trying again');
      listenLater();
    }
  };
  function listenLater() {
    relisten = setTimeout(() => void listen(), settings.relistenMs);
    relisten.unref();
  }

  void listen();
  for (const runner of runners) schedule(runner, 0);
  return {
    wake: (name) => {
      for (const runner of runners) if (name === undefined || runner.task.name === name) wakeRunner(runner);
    },
    stop: async () => {
      stopped = true;
      if (relisten) clearTimeout(relisten);
      for (const runner of runners) if (runner.timer) clearTimeout(runner.timer);
      for (const runner of runners) runner.task.abort?.();
      await listener?.close().catch(() => undefined);
      await Promise.all(runners.map((runner) => runner.running));
      await Promise.all(runners.map((runner) => runner.task.drain?.()));
    },
  };
}
