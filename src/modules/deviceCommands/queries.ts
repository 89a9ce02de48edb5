// Reading and writing device commands: plain functions taking db | trx. Every statement names the
// device by (partner, id), so a command is only ever found through its own partner's device.
import type { DbOrTrx } from '../../db/knex.js';
import type { TenantKey } from '../tenancy.js';
import { type DeviceCommandRow, type DeviceCommandType, expiryCutoff, WAITING_STATUSES } from './rows.js';

const COLUMNS = [
  'partner_id',
  'id',
  'device_id',
  'type',
  'hours',
  'message',
  'status',
  'created_at',
  'delivered_at',
  'acknowledged_at',
] as const;

/** A device as a command needs it: its key, and what the acknowledged event names it by. */
export interface CommandDevice {
  partner_id: string;
  id: string;
  tag: string;
  imei: string;
}

/** A device by id: within one partner, or any partner's when partnerId is null (operators; devices are indexed by id). */
export function commandDeviceById(
  db: DbOrTrx,
  id: string,
  partnerId: string | null,
): Promise<CommandDevice | undefined> {
  const query = db<CommandDevice>('devices').select('partner_id', 'id', 'tag', 'imei').where({ id });
  return (partnerId === null ? query : query.where({ partner_id: partnerId })).first();
}

type NewDeviceCommand = Pick<
  DeviceCommandRow,
  'partner_id' | 'device_id' | 'type' | 'hours' | 'message' | 'created_at'
>;

/** Stores a pending command (one statement). */
export async function insertDeviceCommand(db: DbOrTrx, row: NewDeviceCommand): Promise<DeviceCommandRow> {
  const [written] = await db<DeviceCommandRow>('device_commands')
    .insert(row)
    .returning([...COLUMNS]);
  return written as DeviceCommandRow;
}

/** `limit` commands of a device, newest first, older than id `before` (a page's `after`). */
export function commandsOfDevice(
  db: DbOrTrx,
  device: TenantKey,
  before: string | undefined,
  limit: number,
): Promise<DeviceCommandRow[]> {
  const query = db<DeviceCommandRow>('device_commands')
    .select(...COLUMNS)
    .where({ partner_id: device.partnerId, device_id: device.id });
  if (before !== undefined) query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit);
}

/** Whether the device has a command at or after id `before` (hasPreviousPage: newer ones precede the page). */
export async function commandsPrecede(db: DbOrTrx, device: TenantKey, before: string): Promise<boolean> {
  const row = await db('device_commands')
    .where({ partner_id: device.partnerId, device_id: device.id })
    .where('id', '>=', before)
    .first('id');
  return row !== undefined;
}

/**
 * Marks the device's carried (DELIVERED) commands among `ids` acknowledged at `now`, expired ones too
 * (the device says it has them); any other id (another device's, a pending or acknowledged one) is
 * left alone. Returns the commands it changed, by id.
 */
export async function acknowledgeCommands(
  trx: DbOrTrx,
  device: TenantKey,
  ids: readonly string[],
  now: Date,
): Promise<DeviceCommandRow[]> {
  if (ids.length === 0) return [];
  const rows = await trx<DeviceCommandRow>('device_commands')
    .where({ partner_id: device.partnerId, device_id: device.id, status: 'DELIVERED' })
    .whereIn('id', ids)
    .update({ status: 'ACKNOWLEDGED', acknowledged_at: now })
    .returning([...COLUMNS]);
  return (rows as DeviceCommandRow[]).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
}

/**
 * Carries at most `limit` of the device's unacknowledged, unexpired commands at `now`, oldest first,
 * and returns them in that order (decisions.md 34): a pending one becomes DELIVERED with `now` as its
 * deliveredAt, one carried before keeps its first deliveredAt. Run under the device's row lock (the
 * check-in's), so two check-ins of one device never carry at once.
 */
export async function carryCommands(
  trx: DbOrTrx,
  device: TenantKey,
  now: Date,
  limit: number,
): Promise<DeviceCommandRow[]> {
  const waiting = waitingCommands(trx, device, now).select('id').orderBy('id').limit(limit);
  const rows = await trx<DeviceCommandRow>('device_commands')
    .where({ partner_id: device.partnerId, device_id: device.id })
    .whereIn('id', waiting)
    .update({ status: 'DELIVERED', delivered_at: trx.raw('coalesce(delivered_at, ?)', [now]) })
    .returning([...COLUMNS]);
  return (rows as DeviceCommandRow[]).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
}

/** The device's commands still to be carried at `now`: neither acknowledged nor expired. */
function waitingCommands(db: DbOrTrx, device: TenantKey, now: Date) {
  return db('device_commands')
    .where({ partner_id: device.partnerId, device_id: device.id })
    .whereIn('status', WAITING_STATUSES)
    .where('created_at', '>', expiryCutoff(now));
}

/**
 * Locks the device's row for the rest of the transaction (the lock a check-in takes), then counts its
 * waiting commands (decisions.md 34). Two statements: a count in the locking statement would read the
 * snapshot taken before the lock was granted, and miss a command a concurrent send committed meanwhile.
 */
export async function lockedWaitingCount(db: DbOrTrx, device: TenantKey, now: Date): Promise<number> {
  await db('devices').where({ partner_id: device.partnerId, id: device.id }).forUpdate().first('id');
  const row = await waitingCommands(db, device, now).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** The commands that decide a device's lock state (decisions.md 20). */
const LOCK_COMMAND_TYPES: readonly DeviceCommandType[] = ['LOCK_NOW', 'UNLOCK_FOR_HOURS', 'RELEASE'];

/** The newest carried lock command of a device, and whether a payment on its orders was received after it was sent. */
interface LockCommand {
  type: DeviceCommandType;
  hours: number | null;
  delivered_at: Date;
  paid_since: boolean;
}

/** The device's newest carried (DELIVERED or ACKNOWLEDGED, expired too) LOCK_NOW, UNLOCK_FOR_HOURS or RELEASE (one statement). */
export async function newestLockCommand(db: DbOrTrx, device: TenantKey): Promise<LockCommand | undefined> {
  const row = await db('device_commands as c')
    .select(
      'c.type',
      'c.hours',
      'c.delivered_at',
      // The partner bound as a value in each table: so Citus routes the statement to one shard (decisions.md 51).
      db.raw(
        `exists (select 1 from payments p
           join finance_orders o on o.partner_id = ? and o.id = p.finance_order_id
           where p.partner_id = ? and o.device_id = c.device_id and p.received_at > c.created_at) as paid_since`,
        [device.partnerId, device.partnerId],
      ),
    )
    .where({ 'c.partner_id': device.partnerId, 'c.device_id': device.id })
    .whereNot('c.status', 'PENDING')
    .whereIn('c.type', LOCK_COMMAND_TYPES)
    .orderBy('c.id', 'desc')
    .first();
  return row as LockCommand | undefined;
}

/** `column` brought back to `now` when it lies after it (a null stays null). */
const notAfter = (db: DbOrTrx, column: string, now: Date) =>
  db.raw('case when ?? > ?::timestamptz then ?::timestamptz else ?? end', [column, now, now, column]);

/**
 * A partner's sandbox clock put back to real time (decisions.md 34): the command times its clock wrote
 * ahead of the time it keeps now are brought back to it, so a payment after the reset lifts a LOCK_NOW
 * sent before it, an UNLOCK_FOR_HOURS carried before it runs at most its hours from the reset, and a
 * command's week before it expires counts from the reset at the latest. Order is kept: a time brought
 * back lands on `now`, after every time that was not.
 */
export async function settleCommandTimesAt(db: DbOrTrx, partnerId: string, now: Date): Promise<void> {
  await db('device_commands')
    .where({ partner_id: partnerId })
    .andWhere((ahead) =>
      ahead.where('created_at', '>', now).orWhere('delivered_at', '>', now).orWhere('acknowledged_at', '>', now),
    )
    .update({
      created_at: notAfter(db, 'created_at', now),
      delivered_at: notAfter(db, 'delivered_at', now),
      acknowledged_at: notAfter(db, 'acknowledged_at', now),
    });
}
