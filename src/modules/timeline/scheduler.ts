// The lock scheduler: one in every instance, started by main.ts beside the webhook worker. It claims
// due instants from the database (claim.ts) a batch at a time, each batch one transaction, until none
// is due, then looks again after pollMs (1 s): an instant's event is written within pollMs plus a
// claim of its instant, whichever instance takes it. The log publishes the events once committed.
// stop() claims nothing more and waits for the batch under way.
import type { Logger } from 'pino';
import type { Db } from '../../db/knex.js';
import { fireDueInstants } from './claim.js';

export interface LockSchedulerDeps {
  db: Db;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** Real time (the instants' fire_at is real time; each partner's clock is in its instants already). */
  now?: () => Date;
  /** Instants claimed in one transaction. */
  batchSize?: number;
  /** The wait when nothing was due. */
  pollMs?: number;
}

export interface LockScheduler {
  /** Claims and writes everything due now, batch after batch; answers the number of instants taken. */
  fireDue(): Promise<number>;
  /** Claims nothing more; resolves when the batch under way has committed or rolled back. */
  stop(): Promise<void>;
}

export const DEFAULT_LOCK_SCHEDULER = { batchSize: 500, pollMs: 1000 } as const;

export function startLockScheduler(deps: LockSchedulerDeps, options: { autoStart?: boolean } = {}): LockScheduler {
  const now = deps.now ?? (() => new Date());
  const batchSize = deps.batchSize ?? DEFAULT_LOCK_SCHEDULER.batchSize;
  const pollMs = deps.pollMs ?? DEFAULT_LOCK_SCHEDULER.pollMs;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function drain(): Promise<number> {
    let taken = 0;
    while (!stopped) {
      const at = now();
      const batch = await deps.db.transaction((trx) => fireDueInstants(trx, at, batchSize));
      taken += batch.claimed;
      if (batch.claimed < batchSize) break;
    }
    return taken;
  }

  /** One drain at a time in this process: a second caller waits for the one under way, then drains again. */
  async function fireDue(): Promise<number> {
    while (running) await running.catch(() => 0);
    running = drain();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      fireDue()
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'the lock timeline could not be claimed'))
        .finally(() => schedule(pollMs));
    }, delayMs);
  }

  if (options.autoStart !== false) schedule(0);
  return {
    fireDue,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
