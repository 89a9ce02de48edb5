import type { Knex } from 'knex';
import { type RowSources, sourcesOf } from '../../db/joinedRows.js';
import type { DbOrTrx } from '../../db/knex.js';
import { limitToPage, type Page } from '../pages.js';
import { type TenantKey, whereTenantKeys } from '../tenancy.js';
import type { DeviceFamilyRow, DeviceListing, DeviceModelRow, DeviceRow, SilenceMoment } from './rows.js';

/** The columns of a DeviceRow's own table. */
export const COLUMNS = [
  'partner_id',
  'id',
  'customer_id',
  'model_id',
  'tag',
  'imei',
  'sim_number',
  'phone_number',
  'description',
  'last_seen_at',
  'last_checkin_at',
  'last_sim_number',
  'last_app_version',
] as const;

/**
 * Where each DeviceRow field comes from, given the aliases devices, device_models and device_families
 * are joined under (statements that read devices along with other rows select the same row).
 */
export function deviceSources(alias: { device: string; model: string; family: string }): RowSources {
  return {
    ...sourcesOf(alias.device, COLUMNS),
    model_make_model: `${alias.model}.make_model`,
    model_name: `${alias.model}.name`,
    family_id: `${alias.family}.id`,
    family_name: `${alias.family}.name`,
  };
}

/** Devices with their catalogue model and family joined in (see DeviceRow). */
function devicesWithCatalogue(db: DbOrTrx) {
  return db<DeviceRow>('devices as d')
    .join('device_models as m', 'm.id', 'd.model_id')
    .join('device_families as f', 'f.id', 'm.family_id')
    .select(
      ...Object.entries(deviceSources({ device: 'd', model: 'm', family: 'f' })).map(
        ([field, source]) => `${source} as ${field}`,
      ),
    );
}

export function devicesByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<DeviceRow[]> {
  return whereTenantKeys(devicesWithCatalogue(db), ['d.partner_id', 'd.id'], keys);
}

/** The devices of several customers, ordered by id. */
export function devicesOfCustomers(db: DbOrTrx, customers: readonly TenantKey[]): Promise<DeviceRow[]> {
  return whereTenantKeys(devicesWithCatalogue(db), ['d.partner_id', 'd.customer_id'], customers).orderBy('d.id');
}

/**
 * The device with this IMEI or tag, through the global directory (one unique-index lookup, whatever
 * the partner); restricted to one partner unless partnerId is null.
 */
export async function findDevice(
  db: DbOrTrx,
  by: 'imei' | 'tag',
  value: string,
  partnerId: string | null,
): Promise<DeviceRow | undefined> {
  const entry = await db('device_directory').select('partner_id', 'device_id').where(by, value).first();
  if (!entry || (partnerId !== null && entry.partner_id !== partnerId)) return undefined;
  return devicesWithCatalogue(db).where({ 'd.partner_id': entry.partner_id, 'd.id': entry.device_id }).first();
}

/**
 * "Silent since the listing's moment or earlier" as a condition on a device row (alias d), the SQL of
 * the rule resolvers.ts silentSince follows: its last check-in at or before the moment, or, never
 * checked in, its first finance order made at or before it. For every partner's devices the moment
 * is real time moved by each device's partner's sandbox offset (decisions.md 15). Deliberately
 * unindexed (decisions.md 22): a page reads along the partner's id range.
 */
function silentSql(moment: SilenceMoment): { sql: string; bindings: Knex.Value[] } {
  let since = '?::timestamptz';
  let bindings: Knex.Value[];
  if (moment.partnerId !== null) bindings = [moment.silentSince];
  else if (moment.offsets.size === 0) bindings = [moment.realSilentSince];
  else {
    const offsets = [...moment.offsets];
    since = `(?::timestamptz + case d.partner_id ${offsets.map(() => 'when ? then ?::int8').join(' ')} else 0 end * interval '1 millisecond')`;
    bindings = [moment.realSilentSince, ...offsets.flat()];
  }
  // A scalar subquery, not exists: the planner may turn an exists into a hash of every order.
  const ordered = `(select min(o.ordered_at) from finance_orders o where o.partner_id = d.partner_id and o.device_id = d.id) <= ${since}`;
  return {
    sql: `d.last_checkin_at <= ${since} or (d.last_checkin_at is null and ${ordered})`,
    bindings: [...bindings, ...bindings],
  };
}

/** The devices a listing holds, with their catalogue (alias d for the device). */
function devicesListed(db: DbOrTrx, listing: DeviceListing) {
  const query = devicesWithCatalogue(db);
  if (listing.partnerId !== null) query.where('d.partner_id', listing.partnerId);
  if (listing.silence !== null) {
    const { sql, bindings } = silentSql(listing.silence);
    query.whereRaw(`(${sql})`, bindings);
  }
  return query;
}

/**
 * A page of a listing of devices in id order after the device `after`: an id keyset, so pages
 * neither skip nor repeat a device while devices are added (each gets a higher id).
 */
export function listDevices(
  db: DbOrTrx,
  listing: DeviceListing,
  page: { after: string | undefined; limit: number },
): Promise<DeviceRow[]> {
  const query = devicesListed(db, listing).orderBy('d.id').limit(page.limit);
  if (page.after !== undefined) query.where('d.id', '>', page.after);
  return query;
}

/** Whether the listing holds the device `id` or one before it: what precedes a page read after it. */
export async function devicesPrecede(db: DbOrTrx, listing: DeviceListing, id: string): Promise<boolean> {
  const query = devicesListed(db, listing).where('d.id', '<=', id).orderBy('d.id', 'desc').limit(1);
  return (await query).length > 0;
}

type NewDevice = Pick<
  DeviceRow,
  'partner_id' | 'customer_id' | 'model_id' | 'tag' | 'imei' | 'sim_number' | 'phone_number' | 'description'
>;

/** Inserts a device and its directory entry (the global uniqueness of its IMEI and tag). */
export async function insertDevice(trx: DbOrTrx, row: NewDevice): Promise<DeviceRow> {
  const [inserted] = await trx('devices').insert(row).returning(['partner_id', 'id', 'tag', 'imei']);
  await trx('device_directory').insert({
    imei: inserted.imei,
    tag: inserted.tag,
    partner_id: inserted.partner_id,
    device_id: inserted.id,
  });
  const device = await devicesByKeys(trx, [{ partnerId: inserted.partner_id, id: inserted.id }]);
  return device[0]!;
}

/** Gives a device without a holder to a customer (when a sale finances it). */
export async function assignDeviceToCustomer(trx: DbOrTrx, device: TenantKey, customerId: string): Promise<void> {
  await trx('devices').where({ partner_id: device.partnerId, id: device.id }).update({ customer_id: customerId });
}

/** One page of the device catalogue's families, ordered by id. */
export function listDeviceFamilies(db: DbOrTrx, page: Page): Promise<DeviceFamilyRow[]> {
  return limitToPage(db<DeviceFamilyRow>('device_families').select('id', 'name'), page);
}

export function deviceFamiliesByIds(db: DbOrTrx, ids: readonly string[]): Promise<DeviceFamilyRow[]> {
  return db<DeviceFamilyRow>('device_families').select('id', 'name').whereIn('id', ids);
}

export function deviceModelsByIds(db: DbOrTrx, ids: readonly string[]): Promise<DeviceModelRow[]> {
  return db<DeviceModelRow>('device_models').select('id', 'family_id', 'make_model', 'name').whereIn('id', ids);
}

export function deviceModelsOfFamilies(db: DbOrTrx, familyIds: readonly string[]): Promise<DeviceModelRow[]> {
  return db<DeviceModelRow>('device_models')
    .select('id', 'family_id', 'make_model', 'name')
    .whereIn('family_id', familyIds)
    .orderBy('id');
}

export async function insertDeviceFamily(db: DbOrTrx, name: string): Promise<DeviceFamilyRow> {
  const [row] = await db<DeviceFamilyRow>('device_families').insert({ name }).returning(['id', 'name']);
  return row as DeviceFamilyRow;
}

export async function insertDeviceModel(db: DbOrTrx, row: Omit<DeviceModelRow, 'id'>): Promise<DeviceModelRow> {
  const [inserted] = await db<DeviceModelRow>('device_models')
    .insert(row)
    .returning(['id', 'family_id', 'make_model', 'name']);
  return inserted as DeviceModelRow;
}

/** A device by id: within one partner, or in any partner when partnerId is null (operators). */
export function deviceById(db: DbOrTrx, id: string, partnerId: string | null): Promise<DeviceRow | undefined> {
  const query = devicesWithCatalogue(db).where('d.id', id);
  return (partnerId === null ? query : query.where('d.partner_id', partnerId)).first();
}
