// device.command_acknowledged's data (decisions.md 20): the device and the command, times in Unix
// seconds as the device events give them (timeline/eventData.ts).
import type { NewEvent } from '../events/rows.js';
import type { CommandDevice } from './queries.js';
import type { DeviceCommandRow } from './rows.js';

const unixSeconds = (at: Date | null) => (at === null ? null : Math.floor(at.getTime() / 1000));

/** One acknowledgement, at the check-in's time `now`. */
export function commandAcknowledgedEvent(
  device: Pick<CommandDevice, 'tag' | 'imei'>,
  command: DeviceCommandRow,
  now: Date,
): NewEvent {
  return {
    type: 'device.command_acknowledged',
    occurredAt: now,
    data: {
      device: { tag: device.tag, imei: device.imei },
      command: {
        id: command.id,
        type: command.type,
        hours: command.hours,
        message: command.message,
        createdAt: unixSeconds(command.created_at),
        deliveredAt: unixSeconds(command.delivered_at),
        acknowledgedAt: unixSeconds(command.acknowledged_at),
      },
    },
  };
}
