// What the scenarios ask for, read from the filled database: the busiest partner, keys of its own,
// customers' locators, finance orders with a balance to pay, and the transaction windows.
import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/knex.js';
import { displayPrefix, hashApiKey } from '../src/modules/auth/keys.js';
import { DAY } from './settings.js';

export interface Window {
  start: number;
  end: number;
}

export interface Workload {
  partner: string;
  partnerKey: string;
  retailKey: string;
  /** The partner's live store keys (bench-store-key-<n>, neither revoked nor expired): the fleet of tills. */
  storeKeys: string[];
  /** One locator of one of the partner's customers, of a kind picked at random. */
  randomLocator: () => string;
  orders: Array<{ id: string; merchant_id: string; clerk_id: string; currency: string }>;
  /** By name: 1 day, 30 days, and (where the data set holds that many) the window of the latest 10,000 rows. */
  windows: Record<string, Window>;
}

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

export async function readWorkload(data: Db): Promise<Workload> {
  const partner = (
    await data.raw(`select partner_id from finance_orders group by partner_id order by count(*) desc limit 1`)
  ).rows[0]?.partner_id as string | undefined;
  if (!partner) throw new Error('the filled database holds no finance orders');
  const partnerKey = `bench-partner-${randomBytes(12).toString('hex')}`;
  const retailKey = `bench-retail-${randomBytes(12).toString('hex')}`;
  await data('api_keys').insert(
    [
      { key: partnerKey, kind: 'partner' },
      { key: retailKey, kind: 'retail' },
    ].map(({ key, kind }) => ({
      key_hash: hashApiKey(key),
      display_prefix: displayPrefix(key),
      kind,
      partner_id: partner,
      label: `bench ${kind} key`,
    })),
  );
  const randomLocator = await locatorPicker(data, partner);
  const orders = (
    await data.raw(
      `select id::text, merchant_id::text, clerk_id::text, currency from finance_orders
       where partner_id = ? and merchant_id is not null and clerk_id is not null and monthly_cost_minor * months - total_paid_minor >= 2000
       order by random() limit 2000`,
      [partner],
    )
  ).rows as Workload['orders'];
  if (orders.length === 0) throw new Error('no finance order with a balance to pay');
  const storeKeys = await storeKeysOf(data, partner);
  return { partner, partnerKey, retailKey, storeKeys, randomLocator, orders, windows: await windowsOf(data, partner) };
}

/** The fleet's size: at least this many live store keys, or the many-key rows would not be what they say. */
export const FLEET = 250;

/**
 * The partner's live store keys: the generator stores them hashed, and names each by its label
 * (`bench store key <n>`, its key bench-store-key-<n>), so the label gives the key back.
 */
async function storeKeysOf(data: Db, partner: string): Promise<string[]> {
  const labels = (
    await data.raw(
      `select label from api_keys where partner_id = ? and kind = 'retail' and label like 'bench store key %'
       and revoked_at is null and (expires_at is null or expires_at > now()) order by id`,
      [partner],
    )
  ).rows as Array<{ label: string }>;
  const keys = labels.map(({ label }) => `bench-store-key-${label.slice('bench store key '.length)}`);
  if (keys.length < FLEET)
    throw new Error(`partner ${partner} has ${keys.length} live store keys; the many-key rows need at least ${FLEET}`);
  return keys;
}

/**
 * A fleet of tills, one key each, for one autocannon run: a request takes an idle till at random and
 * gives it back with its answer, so that no till has two requests under way (a store counter serves
 * one customer at a time) and concurrent requests share a key only when every till is busy. Built
 * afresh per run: a run's deadline leaves its last requests' tills taken.
 */
export function tillFleet(keys: readonly string[]): { take: () => string; giveBack: (key: string) => void } {
  const idle = [...keys];
  const taken = new Set<string>();
  return {
    take: () => {
      if (idle.length === 0) return pick(keys);
      const at = Math.floor(Math.random() * idle.length);
      const key = idle[at]!;
      idle[at] = idle.at(-1)!;
      idle.pop();
      taken.add(key);
      return key;
    },
    giveBack: (key) => {
      if (taken.delete(key)) idle.push(key);
    },
  };
}

/** Locators of 2,000 of the partner's customers, each kind (a phone number only where it names one customer). */
async function locatorPicker(data: Db, partner: string): Promise<() => string> {
  const sample = (
    await data.raw(
      `select dd.imei, dd.tag, c.phone_number, c.id::text as customer_id
       from finance_orders o
       join device_directory dd on dd.partner_id = o.partner_id and dd.device_id = o.device_id
       join customers c on c.partner_id = o.partner_id and c.id = o.customer_id
       where o.partner_id = ? order by random() limit 2000`,
      [partner],
    )
  ).rows as Array<{ imei: string; tag: string; phone_number: string | null; customer_id: string }>;
  const sharedPhones = new Set(
    (
      await data.raw(
        `select phone_number from customers where partner_id = ? and phone_number = any(?) group by phone_number having count(*) > 1`,
        [partner, sample.map((row) => row.phone_number).filter((phone): phone is string => Boolean(phone))],
      )
    ).rows.map((row: { phone_number: string }) => row.phone_number),
  );
  const locators = {
    imei: sample.map((row) => row.imei),
    tag: sample.map((row) => row.tag),
    phone: sample
      .map((row) => row.phone_number)
      .filter((phone): phone is string => Boolean(phone) && !sharedPhones.has(phone)),
    customerId: sample.map((row) => row.customer_id),
  };
  const kinds = (Object.keys(locators) as Array<keyof typeof locators>).filter((kind) => locators[kind].length > 0);
  if (kinds.length === 0) throw new Error('no locators to look up');
  return () => pick(locators[pick(kinds)]);
}

async function windowsOf(data: Db, partner: string): Promise<Record<string, Window>> {
  const latest = (
    await data.raw(`select extract(epoch from max(occurred_at))::int8 as at from transactions where partner_id = ?`, [
      partner,
    ])
  ).rows[0]?.at as string | null;
  if (!latest) throw new Error('the partner has no transactions');
  // Windows end at the start of the UTC day of the partner's latest transaction: that day may be partial.
  const end = Math.floor(Number(latest) / DAY) * DAY;
  const tenThousandth = (
    await data.raw(
      `select extract(epoch from occurred_at)::int8 as at from transactions where partner_id = ? and occurred_at < to_timestamp(?) and occurred_at >= to_timestamp(?)
       order by occurred_at desc offset 9999 limit 1`,
      [partner, end, end - 366 * DAY + DAY],
    )
  ).rows[0]?.at as string | undefined;
  return {
    '1 day': { start: end - DAY, end },
    '30 days': { start: end - 30 * DAY, end },
    ...(tenThousandth ? { '10,000 rows': { start: Number(tenThousandth), end } } : {}),
  };
}
