// Tenant-scoped DataLoaders. Every tenant row is addressed by (partner, id), never by id alone, so a
// lookup can only find a row of the partner that asked; the loaders batch per request (no N+1).
import DataLoader from 'dataloader';

export interface TenantKey {
  partnerId: string;
  id: string;
}

interface TenantRow {
  partner_id: string;
  id: string;
}

const tenantCacheKey = (key: TenantKey) => `${key.partnerId}:${key.id}`;

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
