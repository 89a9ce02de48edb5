// STAND-IN: the commands part replaces this file; it returns no commands and changes nothing.
import type { Knex } from 'knex';
import type { NewEvent } from '../events/rows.js';

type Trx = Knex.Transaction;

export interface CommandForDevice {
  id: string;
  type: 'LOCK_NOW' | 'UNLOCK_FOR_HOURS' | 'SHOW_MESSAGE' | 'RELEASE';
  hours: number | null;
  message: string | null;
}

/** In the check-in's transaction: acknowledges, delivers and returns the device's commands, and what they do now. */
export async function commandsAtCheckin(
  _trx: Trx,
  _input: { partnerId: string; deviceId: string; now: Date; acknowledged: readonly string[] },
): Promise<{ commands: CommandForDevice[]; lockNow: boolean; unlockedUntil: Date | null; events: NewEvent[] }> {
  return { commands: [], lockNow: false, unlockedUntil: null, events: [] };
}
