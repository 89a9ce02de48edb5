// The contract's JSON types for the service's values (docs/legacy-contract.md#json-types): ids it types as
// integer, amounts it types as number, times as Unix seconds.
import { decimalToJsonNumber } from '../kernel/money.js';

/** An id the contract types as integer. Ids come from int8 sequences far below 2^53. */
export const integer = (id: string): number => Number(id);
/** An amount the contract types as number, from the exact decimal string. */
export const number = (decimal: string): number => decimalToJsonNumber(decimal);
/** A time as the contract writes it: whole Unix seconds. */
export const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export interface Named {
  id: string;
  name: string;
}

/** `{ id, name }` with the id as integer. */
export const named = (row: Named) => ({ id: integer(row.id), name: row.name });
