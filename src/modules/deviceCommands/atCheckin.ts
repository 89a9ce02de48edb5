// What a check-in does with the device's commands (decisions.md 20), in the check-in's transaction:
// acknowledges the delivered ones the device lists, delivers the pending ones, and says what the
// commands ask of the lock state. The device door calls it and appends the events with its own.
import type { DbOrTrx } from '../../db/knex.js';
import { isDatabaseId } from '../../kernel/ids.js';
import type { NewEvent } from '../events/rows.js';
import { commandAcknowledgedEvent } from './eventData.js';
import { acknowledgeCommands, commandDeviceById, deliverPendingCommands, newestLockCommand } from './queries.js';
import type { DeviceCommandType } from './rows.js';

/** At most this many commands ride one check-in answer; the rest the next. */
export const COMMANDS_PER_CHECKIN = 20;
/** At most this many acknowledged ids are read from one check-in. */
export const ACKNOWLEDGED_PER_CHECKIN = 100;

const HOUR_MS = 3_600_000;

export interface CommandForDevice {
  id: string;
  type: DeviceCommandType;
  hours: number | null;
  message: string | null;
}

export interface CommandsAtCheckin {
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

/** What the newest delivered lock command asks at `now` (decisions.md 20). */
async function lockStateOf(
  trx: DbOrTrx,
  device: { partnerId: string; id: string },
  now: Date,
): Promise<Pick<CommandsAtCheckin, 'lockNow' | 'unlockedUntil'>> {
  const newest = await newestLockCommand(trx, device);
  if (newest?.type === 'LOCK_NOW') return { lockNow: !newest.paid_since, unlockedUntil: null };
  if (newest?.type === 'UNLOCK_FOR_HOURS') {
    const until = new Date(newest.delivered_at.getTime() + newest.hours! * HOUR_MS);
    return { lockNow: false, unlockedUntil: until.getTime() > now.getTime() ? until : null };
  }
  return { lockNow: false, unlockedUntil: null };
}

/**
 * In the check-in's transaction: acknowledges `acknowledged` (ids of this device's delivered commands;
 * others ignored), marks the pending ones delivered and returns them, and says what they do to the
 * lock state now: a LOCK_NOW not yet superseded locks, an UNLOCK_FOR_HOURS unlocks until a time.
 * `now` is the partner's time. Two statements when the device sends no id, three when it sends some, four
 * when one is acknowledged (the device's tag and IMEI for the events).
 */
export async function commandsAtCheckin(
  trx: DbOrTrx,
  input: { partnerId: string; deviceId: string; now: Date; acknowledged: readonly string[] },
): Promise<CommandsAtCheckin> {
  const device = { partnerId: input.partnerId, id: input.deviceId };
  const acknowledged = await acknowledgeCommands(trx, device, acknowledgedIds(input.acknowledged), input.now);
  let events: NewEvent[] = [];
  if (acknowledged.length > 0) {
    const named = await commandDeviceById(trx, device.id, device.partnerId);
    if (named) events = acknowledged.map((command) => commandAcknowledgedEvent(named, command, input.now));
  }
  const delivered = await deliverPendingCommands(trx, device, input.now, COMMANDS_PER_CHECKIN);
  const commands = delivered.map(({ id, type, hours, message }) => ({ id, type, hours, message }));
  return { commands, ...(await lockStateOf(trx, device, input.now)), events };
}
