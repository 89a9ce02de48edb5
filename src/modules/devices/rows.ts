import type { ConnectionPage, EdgeParent } from '../pages.js';

/** A device's IMEI: 15 or 16 digits. */
export const IMEI = /^[0-9]{15,16}$/;

/** A row of `devices`, with its model and family from the catalogue joined in. */
export interface DeviceRow {
  partner_id: string;
  id: string;
  customer_id: string | null;
  model_id: string;
  tag: string;
  imei: string;
  sim_number: string | null;
  phone_number: string | null;
  description: string | null;
  last_seen_at: Date | null;
  // What the last check-in at the device door reported (decisions.md 19).
  last_checkin_at: Date | null;
  last_sim_number: string | null;
  last_app_version: string | null;
  // Joined from the catalogue, so a list of devices needs no further query for model and family.
  model_make_model: string;
  model_name: string;
  family_id: string;
  family_name: string;
}

/**
 * What the graph's Device is answered from: its row with its catalogue model and family as objects,
 * made from the joined columns once, as the row is read (withCatalogue; decisions.md 47).
 */
export type DeviceParent = DeviceRow & { model: DeviceModelRow; family: DeviceFamilyRow };

export interface DeviceFamilyRow {
  id: string;
  name: string;
}

export interface DeviceModelRow {
  id: string;
  family_id: string;
  make_model: string;
  name: string;
}

/** The names DeviceConnection's and DeviceModelConnection's cursors carry (pages.ts idCursorOf). */
export const DEVICE_CURSOR = 'devices';
export const DEVICE_MODEL_CURSOR = 'deviceModels';

/** A page of a customer's devices (Customer.devices), and one of its edges. */
export type DeviceConnectionParent = ConnectionPage<DeviceParent>;
export type DeviceEdgeParent = EdgeParent<DeviceParent>;

/** A page of a family's models (DeviceFamily.models), and one of its edges. */
export type DeviceModelConnectionParent = ConnectionPage<DeviceModelRow>;
export type DeviceModelEdgeParent = EdgeParent<DeviceModelRow>;

/**
 * A listing of devices (Query.devices): one partner's (partnerId) or every partner's (null:
 * operators), narrowed to the devices silent since `silentSince` or earlier when that is given.
 */
export interface DeviceListing {
  partnerId: string | null;
  silence: SilenceMoment | null;
}

/**
 * The moment a device must have been silent since to be listed: for one partner, its time less the
 * days; for every partner, real time less the days, moved by each partner's sandbox offset in SQL.
 */
export type SilenceMoment =
  | { partnerId: string; silentSince: Date }
  | { partnerId: null; realSilentSince: Date; offsets: ReadonlyMap<string, number> };
