// STAND-IN (owner: the lock timeline's part): moves a partner's pending timeline instants when its sandbox clock moves.
import type { DbOrTrx } from '../../db/knex.js';

type Trx = DbOrTrx;

/** Moves the partner's pending real-time instants by -deltaMs, in the clock's transaction: nothing to move yet. */
export async function shiftPartnerTimeline(_trx: Trx, _partnerId: string, _deltaMs: number): Promise<void> {}
