// Sending a device command (decisions.md 20): checked, stored pending and audited in one transaction.
// The device's row is locked first and its waiting commands counted (at most 50, decisions.md 34); a
// RELEASE is refused unless the device's current order (its newest) is paid off, read in the same
// transaction that stores it.
import type { Db, DbOrTrx } from '../../db/knex.js';
import { releaseNotAllowed, tooManyPendingCommands } from '../../kernel/errors.js';
import { formatMoney } from '../../kernel/money.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { financeOrdersOfDevices } from '../financeOrders/queries.js';
import { remainingBalanceOf } from '../financeOrders/terms.js';
import type { CommandAsked } from './inputs.js';
import { checkedCommand } from './inputs.js';
import { type CommandDevice, insertDeviceCommand, lockedWaitingCount } from './queries.js';
import type { DeviceCommandRow } from './rows.js';

/** A device holds at most this many waiting commands: unacknowledged and unexpired (decisions.md 34). */
const MAX_WAITING_COMMANDS = 50;

/**
 * RELEASE_NOT_ALLOWED unless the device's newest order is fully paid and released: a payoff completing
 * at `now` (the partner's time) can still be reversed, so its device is not let go (decisions.md 44).
 */
async function assertReleasable(trx: DbOrTrx, device: CommandDevice, now: Date): Promise<void> {
  const [order] = await financeOrdersOfDevices(trx, [{ partnerId: device.partner_id, id: device.id }]);
  if (!order) throw releaseNotAllowed(device.id, 'it has no finance order');
  // A closed order's balance is 0, but nothing was paid off: a written-off or returned device stays locked (decisions.md 44).
  if (order.closed_reason !== null)
    throw releaseNotAllowed(
      device.id,
      `its finance order ${order.id} was ${order.closed_reason === 'WRITE_OFF' ? 'written off' : 'closed when the device was returned'}`,
    );
  const remaining = remainingBalanceOf(order);
  if (remaining.minor > 0n)
    throw releaseNotAllowed(
      device.id,
      `its finance order ${order.id} is not paid off (${formatMoney(remaining)} remains)`,
    );
  if (order.release_at && order.release_at.getTime() > now.getTime())
    throw releaseNotAllowed(device.id, `its payoff can still be reversed until ${order.release_at.toISOString()}`);
}

/**
 * Stores a command for `device` (found within the caller's reach) at `now`, the partner's time, with
 * its audit record. The input is checked before anything is read, so a refusal writes nothing.
 */
export function sendDeviceCommand(
  db: Db,
  actor: AuditActor,
  device: CommandDevice,
  asked: CommandAsked,
  now: Date,
): Promise<DeviceCommandRow> {
  const command = checkedCommand(asked);
  return audited(
    db,
    actor,
    async (trx) => {
      const waiting = await lockedWaitingCount(trx, { partnerId: device.partner_id, id: device.id }, now);
      if (waiting >= MAX_WAITING_COMMANDS) throw tooManyPendingCommands(device.id, MAX_WAITING_COMMANDS);
      if (command.type === 'RELEASE') await assertReleasable(trx, device, now);
      return insertDeviceCommand(trx, {
        partner_id: device.partner_id,
        device_id: device.id,
        ...command,
        created_at: now,
      });
    },
    (written) => ({
      action: 'device_command.send',
      subjectKind: 'device_command',
      subjectId: written.id,
      partnerId: written.partner_id,
      // Never the message's text (it may name the customer): its length only.
      details: {
        deviceId: written.device_id,
        type: written.type,
        hours: written.hours,
        messageLength: written.message === null ? null : [...written.message].length,
      },
    }),
  );
}
