// What the bench's bare baselines share with each other and with the service: the key's statement,
// the service's statement names (src/db/prepared.ts), and amounts as the money module writes them.
import { statementName } from '../src/db/prepared.js';
import { decimalToJsonNumber, formatAmount } from '../src/kernel/money.js';

/** A row as pg returns it: columns of any type, read by name. */
export type Row = Record<string, unknown>;

/** The service's key lookup (src/modules/auth/queries.ts), the first statement of every request. */
export const KEY_SQL = `select "id", "key_hash", "display_prefix", "kind", "partner_id", "vendor_id", "operator_id", "label", "created_at", "expires_at", "revoked_at" from "api_keys" where "key_hash" = $1 and "revoked_at" is null and ("expires_at" is null or "expires_at" > $2) limit $3`;

/** A service statement written with knex's ? placeholders, as knex sends it to Postgres ($1, $2, ...). */
export const positioned = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** A statement as pg runs it by name: the service's name for the same text. */
export const named = (text: string, values: unknown[]) => ({ name: statementName(text), text, values });

/** Minor units as the contract's JSON number, in the currency's places. */
export const amountNumber = (minor: unknown, currency: unknown): number =>
  decimalToJsonNumber(formatAmount(String(minor), String(currency)));

/** A list of columns of `alias`, as the service writes them ("o"."id", ...). */
export const qualified = (alias: string, columns: readonly string[]) =>
  columns.map((column) => `"${alias}"."${column}"`).join(', ');
