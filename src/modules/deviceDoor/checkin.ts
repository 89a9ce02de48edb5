// A device's check-in (docs/decisions.md 19): what it reported, checked; the answer's rules (its lock
// state from the current order at the partner's time, the commands' effect, the SIM, the offline
// deadline), bound to its request by the request's nonce and the device's answer sequence (34); and
// the write, in one transaction: lastSeen and the last check-in, the sequence, the enrolled SIM, the
// commands, and at most one DEVICE_CHECKED_IN per device per hour.
import type { Knex } from 'knex';
import type { Db, DbOrTrx } from '../../db/knex.js';
import { AppError, invalidRequestBody } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import { type CommandForDevice, commandsAtCheckin } from '../deviceCommands/atCheckin.js';
import { IMEI } from '../devices/rows.js';
import { appendEvents } from '../events/queries.js';
import type { EventRow, NewEvent } from '../events/rows.js';
import { financeOrdersOfDevices } from '../financeOrders/queries.js';
import { type Standing, standingOf } from '../financeOrders/terms.js';
import type { PartnerSettings } from '../partners/settings.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How soon a device checks in again: every 6 hours, every 15 minutes while locked (to hear of a payment soon). */
const CHECKIN_INTERVAL_MS = 6 * HOUR_MS;
const LOCKED_CHECKIN_INTERVAL_MS = 15 * 60_000;
/** The log tells of a device's check-ins at most once per this. */
const CHECKED_IN_EVENT_INTERVAL_MS = HOUR_MS;
const MAX_ACKNOWLEDGED = 100;
/** A request's nonce (decisions.md 34): 16 to 128 base64url characters, fresh for each check-in. */
const NONCE = /^[A-Za-z0-9_-]{16,128}$/;

export type LockState = 'UNLOCKED' | 'LOCKED' | 'RELEASED';
export type LockReason = 'PAYMENT_OVERDUE' | 'SIM_MISMATCH' | 'LOCK_COMMAND';

/** What a device reports at check-in. */
interface CheckinReport {
  imei: string;
  simNumber: string | null;
  appVersion: string;
  acknowledged: string[];
  /** The request's nonce, echoed under the answer's signature. */
  nonce: string;
}

/** The signed answer's data: times in Unix seconds, in the partner's time. */
interface CheckinData {
  deviceTag: string;
  lockState: LockState;
  reason: LockReason | null;
  lockAt: number | null;
  nextCheckinAt: number;
  offlineLockAt: number | null;
  message: string | null;
  commands: CommandForDevice[];
  issuedAt: number;
  /** The device's answer counter: strictly increasing, what a device orders answers by (never issuedAt). */
  sequence: number;
  /** The request's nonce: the answer belongs to that request only. */
  nonce: string;
  /**
   * The greatest unlock-code counter issued under the device's credential when the answer was made
   * (decisions.md 44): the agent raises L (section 21) to it, so no code printed before, a reversed
   * payment's among them, unlocks after this answer. The answer's lockAt holds every payment that stands.
   */
  unlockCodesThrough: number;
}

function text(body: Record<string, unknown>, field: string, max: number, required: boolean): string | null {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw invalidRequestBody(`needs ${field}, a string`);
    return null;
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > max)
    throw invalidRequestBody(`has a bad ${field}: a string of 1 to ${max} characters`);
  return value;
}

/** The check-in body, or INVALID_REQUEST_BODY naming the first problem (members not known are ignored). */
export function parseCheckinReport(body: unknown): CheckinReport {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequestBody('must be a JSON object');
  const fields = body as Record<string, unknown>;
  const imei = text(fields, 'imei', 16, true)!;
  if (!IMEI.test(imei)) throw invalidRequestBody('has a bad imei: 15 or 16 digits');
  const acknowledged = fields.acknowledged ?? [];
  if (
    !Array.isArray(acknowledged) ||
    acknowledged.length > MAX_ACKNOWLEDGED ||
    !acknowledged.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64)
  )
    throw invalidRequestBody(`has a bad acknowledged: at most ${MAX_ACKNOWLEDGED} command ids (strings)`);
  const simNumber = text(fields, 'simNumber', 32, false);
  const appVersion = text(fields, 'appVersion', 64, true)!;
  const nonce = fields.nonce;
  if (nonce === undefined || nonce === null) throw invalidRequestBody('needs nonce, fresh for each check-in');
  if (typeof nonce !== 'string' || !NONCE.test(nonce))
    throw invalidRequestBody('has a bad nonce: 16 to 128 characters of A-Z, a-z, 0-9, - and _');
  return { imei, simNumber, appVersion, acknowledged: acknowledged as string[], nonce };
}

const MESSAGES: Readonly<Record<LockReason, string>> = {
  PAYMENT_OVERDUE: 'This device is locked because a payment is overdue. Make a payment to unlock it.',
  SIM_MISMATCH: 'This device is locked because its SIM card is not the one it was enrolled with. Contact your store.',
  LOCK_COMMAND: 'This device was locked by its provider. Contact your store.',
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** What the device is told, from its order's standing (null: no order) and what else holds at `now`. */
export function checkinAnswer(input: {
  deviceTag: string;
  standing: Standing | null;
  now: Date;
  offlineLockDays: number;
  simLocks: boolean;
  lockNow: boolean;
  unlockedUntil: Date | null;
  commands: CommandForDevice[];
  sequence: number;
  nonce: string;
  unlockCodesThrough: number;
}): CheckinData {
  const { standing, now } = input;
  const released = standing?.secureStatus === 'RELEASED';
  // A payoff completing (decisions.md 44): unlocked until its releaseAt, when it is released or reversed.
  let lockAt = standing?.lockAt ?? (released ? null : (standing?.releaseAt ?? null));
  let reason: LockReason | null = standing?.secureStatus === 'LOCKED' ? 'PAYMENT_OVERDUE' : null;
  // A temporary unlock lifts a payment's lock (not the order): the device locks again when it ends.
  if (input.unlockedUntil && input.unlockedUntil > now && lockAt && input.unlockedUntil > lockAt) {
    lockAt = input.unlockedUntil;
    reason = null;
  }
  if (!released && input.lockNow) reason = 'LOCK_COMMAND';
  if (!released && input.simLocks) reason = 'SIM_MISMATCH';
  const lockState: LockState = released ? 'RELEASED' : reason ? 'LOCKED' : 'UNLOCKED';
  const offlineHorizon = new Date(now.getTime() + input.offlineLockDays * DAY_MS);
  const offlineLockAt = released ? null : lockAt && lockAt < offlineHorizon ? lockAt : offlineHorizon;
  let next = new Date(now.getTime() + (lockState === 'LOCKED' ? LOCKED_CHECKIN_INTERVAL_MS : CHECKIN_INTERVAL_MS));
  if (offlineLockAt && offlineLockAt > now && offlineLockAt < next) next = offlineLockAt;
  return {
    deviceTag: input.deviceTag,
    lockState,
    reason,
    lockAt: lockAt && !released ? seconds(lockAt) : null,
    nextCheckinAt: seconds(next),
    offlineLockAt: offlineLockAt && seconds(offlineLockAt),
    message: reason ? MESSAGES[reason] : null,
    commands: input.commands,
    issuedAt: seconds(now),
    sequence: input.sequence,
    nonce: input.nonce,
    unlockCodesThrough: input.unlockCodesThrough,
  };
}

interface LockedDevice {
  tag: string;
  imei: string;
  enrolled_sim_number: string | null;
  last_checkin_event_at: Date | null;
  /** bigint: a string from pg. */
  checkin_sequence: string | number;
}

/**
 * The live credential's unlock-code counter, as the check-in's update of the device returns it. Its
 * partner is bound as a value: Citus routes the update to one shard only when every table of it names
 * the partner so (decisions.md 51).
 */
const unlockCodesThrough = (trx: DbOrTrx, partnerId: string) =>
  trx.raw(
    `(select dc.unlock_code_counter from device_credentials dc
      where dc.partner_id = ? and dc.device_id = devices.id and dc.ended_at is null) as unlock_codes_through`,
    [partnerId],
  );

type CheckinOutcome = { refused: AppError } | { data: CheckinData; events: EventRow[] };

/** Where the check-in came from, for the audit trail of a refusal. */
interface CheckinOrigin {
  clientAddress: string | null;
  requestId: string | null;
}

/**
 * Checks a device in, in one transaction under its row lock. An IMEI that is not the device's is
 * refused (DEVICE_MISMATCH), and only its audit record written (through audited(), after). The events written are returned for
 * the caller to tell once committed.
 */
export async function checkIn(
  db: Db,
  device: { partnerId: string; deviceId: string },
  report: CheckinReport,
  context: { now: Date; settings: PartnerSettings; origin: CheckinOrigin },
): Promise<CheckinOutcome> {
  const { partnerId, deviceId } = device;
  const { now, settings } = context;
  const outcome = await db.transaction(async (trx: Knex.Transaction): Promise<CheckinOutcome> => {
    const row = (await trx('devices')
      .where({ partner_id: partnerId, id: deviceId })
      .forUpdate()
      .first('tag', 'imei', 'enrolled_sim_number', 'last_checkin_event_at', 'checkin_sequence')) as
      | LockedDevice
      | undefined;
    if (!row || row.imei !== report.imei) {
      return {
        refused: new AppError('DEVICE_MISMATCH', "the imei is not the device's this credential was issued for"),
      };
    }
    const [order] = await financeOrdersOfDevices(trx, [{ partnerId, id: deviceId }]);
    const standing = order ? standingOf(order, now, settings) : null;
    const enrolling = report.simNumber !== null && row.enrolled_sim_number === null;
    const simMismatch =
      report.simNumber !== null && row.enrolled_sim_number !== null && report.simNumber !== row.enrolled_sim_number;
    const effect = await commandsAtCheckin(trx, {
      device: { partner_id: partnerId, id: deviceId, tag: row.tag, imei: row.imei },
      now,
      acknowledged: report.acknowledged,
    });
    // Under the row lock: no other check-in of this device can take the same number.
    const sequence = Number(row.checkin_sequence) + 1;
    const sinceLogged =
      row.last_checkin_event_at === null ? null : now.getTime() - new Date(row.last_checkin_event_at).getTime();
    // A negative time since: the partner's sandbox clock went back (34); waiting out the offset would silence the log.
    const logIt = sinceLogged === null || sinceLogged < 0 || sinceLogged >= CHECKED_IN_EVENT_INTERVAL_MS;
    // The codes' counter is read after the order was (decisions.md 44): a payment whose reversal the
    // order's read saw took its code before, so the answer voids that code. In the update's own statement.
    const [counted] = (await trx('devices')
      .where({ partner_id: partnerId, id: deviceId })
      .update({
        last_seen_at: now,
        last_checkin_at: now,
        last_sim_number: report.simNumber,
        last_app_version: report.appVersion,
        checkin_sequence: sequence,
        ...(enrolling ? { enrolled_sim_number: report.simNumber } : {}),
        ...(logIt ? { last_checkin_event_at: now } : {}),
      })
      .returning(unlockCodesThrough(trx, partnerId))) as Array<{ unlock_codes_through: number | null }>;
    const data = checkinAnswer({
      deviceTag: row.tag,
      standing,
      now,
      offlineLockDays: settings.offlineLockDays,
      simLocks: simMismatch && settings.simControlEnabled,
      lockNow: effect.lockNow,
      unlockedUntil: effect.unlockedUntil,
      commands: effect.commands,
      sequence,
      nonce: report.nonce,
      unlockCodesThrough: Number(counted?.unlock_codes_through ?? 0),
    });
    const checkedIn: NewEvent = {
      type: 'device.checked_in',
      occurredAt: now,
      data: {
        device: { tag: row.tag, imei: row.imei },
        lockState: data.lockState,
        reason: data.reason,
        appVersion: report.appVersion,
        simMismatch,
      },
    };
    const events = await appendEvents(trx, partnerId, [...effect.events, ...(logIt ? [checkedIn] : [])]);
    return { data, events };
  });
  // A refusal changes nothing but the audit trail, which records it in a transaction of its own.
  if ('refused' in outcome) {
    await audited(
      db,
      { kind: 'device', id: deviceId, keyId: null, ...context.origin },
      async () => undefined,
      () => ({
        action: 'device.checkin.refused',
        subjectKind: 'device',
        subjectId: deviceId,
        partnerId,
        details: { reason: 'IMEI_MISMATCH' },
      }),
    );
  }
  return outcome;
}
