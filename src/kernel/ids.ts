// Record ids are positive int8 values, exchanged as decimal strings. An id that could not be a
// database id can name no record: callers treat it as "not found" instead of sending it to SQL.
const DATABASE_ID = /^[1-9][0-9]{0,17}$/;

export function isDatabaseId(value: string): boolean {
  return DATABASE_ID.test(value);
}
