// What a check-in does with the device's commands (decisions.md 20 and 34), in the check-in's
// transaction: acknowledges the carried ones the device lists, carries the unacknowledged ones again
// (a command rides every answer until the device acknowledges it), and says what the commands ask of
// the lock state. The device door calls it and appends the events with its own.
import type { DbOrTrx } from '../../db/knex.js';
import { isDatabaseId } from '../../kernel/ids.js';
import type { NewEvent } from '../events/rows.js';
import { commandAcknowledgedEvent } from './eventData.js';
import { acknowledgeCommands, type CommandDevice, carryCommands, newestLockCommand } from './queries.js';
import type { DeviceCommandType } from './rows.js';

/** At most this many commands ride one check-in answer; the rest a later one. */
const COMMANDS_PER_CHECKIN = 20;
/** At most this many acknowledged ids are read from one check-in. */
const ACKNOWLEDGED_PER_CHECKIN = 100;

const HOUR_MS = 3_600_000;

export interface CommandForDevice {
  id: string;
  type: DeviceCommandType;
  hours: number | null;
  message: string | null;
}

interface CommandsAtCheckin {
  commands: CommandForDevice[];
  /** A LOCK_NOW not yet superseded: the device is locked whatever its order says. */
  lockNow: boolean;
  /** An UNLOCK_FOR_HOURS still running: a device locked by its order may be used until then. */
  unlockedUntil: Date | null;
  /** device.command_acknowledged, one per command acknowledged. */
  events: NewEvent[];
}

/** The distinct ids among what the device sent, at most ACKNOWLEDGED_PER_CHECKIN; anything else is ignored. */
function acknowledgedIds(acknowledged: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const id of acknowledged.slice(0, ACKNOWLEDGED_PER_CHECKIN))
    if (typeof id === 'string' && isDatabaseId(id)) ids.add(id);
  return [...ids];
}

/** What the newest carried lock command asks at `now` (decisions.md 20). */
async function lockStateOf(
  trx: DbOrTrx,
  device: { partnerId: string; id: string },
  now: Date,
): Promise<Pick<CommandsAtCheckin, 'lockNow' | 'unlockedUntil'>> {
  const newest = await newestLockCommand(trx, device);
  if (newest?.type === 'LOCK_NOW') return { lockNow: !newest.paid_since, unlockedUntil: null };
  if (newest?.type === 'UNLOCK_FOR_HOURS') {
    // From the first check-in that carried it: nothing the device does can start it later (34).
    const until = new Date(newest.delivered_at.getTime() + newest.hours! * HOUR_MS);
    return { lockNow: false, unlockedUntil: until.getTime() > now.getTime() ? until : null };
  }
  return { lockNow: false, unlockedUntil: null };
}

/**
 * In the check-in's transaction, with the device's row locked by it: acknowledges `acknowledged` (ids
 * of this device's carried commands; others ignored), carries its unacknowledged, unexpired commands
 * (the pending ones become DELIVERED), and says what they do to the lock state now: a LOCK_NOW not yet
 * superseded locks, an UNLOCK_FOR_HOURS unlocks until a time. `now` is the partner's time; `device`
 * comes from the check-in's locked row, tag and IMEI for the events. Two statements when the device
 * acknowledges nothing, three when it sends ids.
 */
export async function commandsAtCheckin(
  trx: DbOrTrx,
  input: { device: CommandDevice; now: Date; acknowledged: readonly string[] },
): Promise<CommandsAtCheckin> {
  const { device: named, now } = input;
  const device = { partnerId: named.partner_id, id: named.id };
  // Before the carrying, so an answer does not carry again what its own request acknowledges.
  const acknowledged = await acknowledgeCommands(trx, device, acknowledgedIds(input.acknowledged), now);
  const events = acknowledged.map((command) => commandAcknowledgedEvent(named, command, now));
  const carried = await carryCommands(trx, device, now, COMMANDS_PER_CHECKIN);
  const commands = carried.map(({ id, type, hours, message }) => ({ id, type, hours, message }));
  return { commands, ...(await lockStateOf(trx, device, now)), events };
}
