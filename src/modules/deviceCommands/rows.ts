import type { ConnectionPage, EdgeParent } from '../pages.js';

const DEVICE_COMMAND_TYPES = ['LOCK_NOW', 'UNLOCK_FOR_HOURS', 'SHOW_MESSAGE', 'RELEASE'] as const;
export type DeviceCommandType = (typeof DEVICE_COMMAND_TYPES)[number];

/** What is stored of a command's state; EXPIRED is computed (commandStatusOf). */
type StoredCommandStatus = 'PENDING' | 'DELIVERED' | 'ACKNOWLEDGED';
type DeviceCommandStatus = StoredCommandStatus | 'EXPIRED';

/** A row of `device_commands`; its times are the partner's (decisions.md 20). */
export interface DeviceCommandRow {
  partner_id: string;
  id: string;
  device_id: string;
  type: DeviceCommandType;
  hours: number | null;
  message: string | null;
  status: StoredCommandStatus;
  created_at: Date;
  delivered_at: Date | null;
  acknowledged_at: Date | null;
}

/** The stored statuses of a command still carried by check-ins until it is acknowledged or expires (decisions.md 34). */
export const WAITING_STATUSES: readonly StoredCommandStatus[] = ['PENDING', 'DELIVERED'];

/** A command not acknowledged this long after it was sent is EXPIRED: carried no more (decisions.md 20, 34). */
const COMMAND_EXPIRY_MS = 7 * 86_400_000;

/** The moment before which an unacknowledged command, sent then, has expired at `now`. */
export const expiryCutoff = (now: Date): Date => new Date(now.getTime() - COMMAND_EXPIRY_MS);

/** The status at `now` (the partner's time): an unacknowledged command 7 days old or more is EXPIRED. */
export function commandStatusOf(
  command: Pick<DeviceCommandRow, 'status' | 'created_at'>,
  now: Date,
): DeviceCommandStatus {
  if (command.status !== 'ACKNOWLEDGED' && command.created_at.getTime() <= expiryCutoff(now).getTime())
    return 'EXPIRED';
  return command.status;
}

/** A page of a device's commands (Device.commands), and one of its edges; a cursor is the command's id. */
export type DeviceCommandConnectionParent = ConnectionPage<DeviceCommandRow>;
export type DeviceCommandEdgeParent = EdgeParent<DeviceCommandRow>;
