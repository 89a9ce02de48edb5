// DataLoaders, built per request so they batch (no N+1) and cache only for that request. Every tenant
// row is addressed by (partner, id), never by id alone, so a lookup can only find a row of the
// partner it names.
import DataLoader from 'dataloader';
import type { Knex } from 'knex';

export interface TenantKey {
  partnerId: string;
  id: string;
}

interface TenantRow {
  partner_id: string;
  id: string;
}

/** The one cache key of a (partner, id) key, for every tenant loader. */
export const tenantCacheKey = (key: TenantKey) => `${key.partnerId}:${key.id}`;

/** Loads one row per (partner, id) key, null where there is none. */
export function tenantKeyLoader<Row extends TenantRow>(fetch: (keys: readonly TenantKey[]) => Promise<Row[]>) {
  return new DataLoader<TenantKey, Row | null, string>(
    async (keys) => {
      const rows = await fetch(keys);
      const found = new Map(rows.map((row) => [`${row.partner_id}:${row.id}`, row]));
      return keys.map((key) => found.get(tenantCacheKey(key)) ?? null);
    },
    { cacheKeyFn: tenantCacheKey },
  );
}

/** Loads every row of each partner, keeping the order the fetch returns them in. */
export function tenantListLoader<Row extends TenantRow>(fetch: (partnerIds: readonly string[]) => Promise<Row[]>) {
  return new DataLoader<string, Row[]>(async (partnerIds) => {
    const rows = await fetch(partnerIds);
    const byPartner = new Map<string, Row[]>(partnerIds.map((id) => [id, []]));
    for (const row of rows) byPartner.get(row.partner_id)?.push(row);
    return partnerIds.map((id) => byPartner.get(id)!);
  });
}

/** Loads the child rows of each (partner, parent id) key, keeping the order the fetch returns them in. */
export function tenantChildrenLoader<Row extends { partner_id: string }>(
  fetch: (parents: readonly TenantKey[]) => Promise<Row[]>,
  parentIdOf: (row: Row) => string,
) {
  return new DataLoader<TenantKey, Row[], string>(
    async (parents) => {
      const rows = await fetch(parents);
      const byParent = new Map<string, Row[]>(parents.map((key) => [tenantCacheKey(key), []]));
      for (const row of rows) byParent.get(`${row.partner_id}:${parentIdOf(row)}`)?.push(row);
      return parents.map((key) => byParent.get(tenantCacheKey(key))!);
    },
    { cacheKeyFn: tenantCacheKey },
  );
}

/**
 * Restricts a query to rows whose (partner column, key column) pair is one of `keys`. The pairs
 * travel as two arrays through unnest: one flat expression however many there are (a row-value
 * IN list of thousands of pairs exceeds Postgres's stack depth). The partner column is also held to
 * the partners' array on its own (`= any`), which Citus reads to run the statement on those partners'
 * shards alone, one when the keys are one partner's (decisions.md 48); Postgres's answer is the same.
 */
export function whereTenantKeys<Q extends Knex.QueryBuilder>(
  query: Q,
  columns: readonly [string, string],
  keys: readonly TenantKey[] | TenantKeyArrays,
): Q {
  const [partnerIds, ids] = 'partnerIds' in keys ? [keys.partnerIds, keys.ids] : tenantKeyArrays(keys).both;
  return query.whereRaw('(??, ??) in (select * from unnest(?::int8[], ?::int8[])) and ?? = any(?::int8[])', [
    columns[0],
    columns[1],
    partnerIds,
    ids,
    columns[0],
    partnerIds,
  ]) as Q;
}

/** Tenant keys as whereTenantKeys binds them: a hot statement run by shape (db/prepared.ts runShaped) passes `bound` as its values. */
interface TenantKeyArrays {
  partnerIds: string[];
  ids: string[];
  /** The two, in the order of a plain unnest of the pairs. */
  both: [string[], string[]];
  /** What whereTenantKeys binds, in its order. */
  bound: [string[], string[], string[]];
}

export function tenantKeyArrays(keys: readonly TenantKey[]): TenantKeyArrays {
  const partnerIds = keys.map((key) => key.partnerId);
  const ids = keys.map((key) => key.id);
  return { partnerIds, ids, both: [partnerIds, ids], bound: [partnerIds, ids, partnerIds] };
}

/**
 * Runs `fetch` once for each partner among `keys`, with that partner's ids, all at once, and joins the
 * rows. Each statement binds its partner as a value, so Citus routes it to the partner's worker: a
 * page per parent (a LATERAL with a LIMIT) over the parents of more than one partner is refused there
 * (decisions.md 51). A partner's key only ever batches its own parents: one statement, as before.
 */
export async function eachPartnerOf<Row>(
  keys: readonly TenantKey[],
  fetch: (partnerId: string, ids: string[]) => Promise<Row[]>,
): Promise<Row[]> {
  const idsOfPartner = new Map<string, string[]>();
  for (const key of keys) {
    const ids = idsOfPartner.get(key.partnerId);
    if (ids) ids.push(key.id);
    else idsOfPartner.set(key.partnerId, [key.id]);
  }
  const pages = await Promise.all([...idsOfPartner].map(([partnerId, ids]) => fetch(partnerId, ids)));
  return pages.flat();
}

/** Loads rows of a global table (partners, vendors, the device catalogue) by id, null where none. */
export function globalIdLoader<Row extends { id: string }>(fetch: (ids: readonly string[]) => Promise<Row[]>) {
  return new DataLoader<string, Row | null>(async (ids) => {
    const rows = await fetch(ids);
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => found.get(id) ?? null);
  });
}
