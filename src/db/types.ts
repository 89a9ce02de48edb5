// The one place where Postgres values become JavaScript values. pg and PGlite disagree out of the box
// (PGlite turns int8 into a JS number, which silently loses precision past 2^53; pg gives a string),
// so both drivers get these parsers and every row has the same JavaScript types on either backend:
//
// - int8 (ids, money in minor units, counts) -> string: exact; the money module and mappers convert.
// - numeric -> string: exact decimal text.
// - date -> 'YYYY-MM-DD' string: a calendar date has no time zone to get wrong.
// - timestamptz -> Date, by pg's own parser on both: PGlite's reads the years 0 to 99 as 1900 to 1999
//   (src/db/types.test.ts). Columns are always timestamptz, never timestamp without time zone.
import pg from 'pg';

const OID = { int8: 20, numeric: 1700, date: 1082, timestamptz: 1184 } as const;

const keepText = (value: string): string => value;

/** Parsers by type OID, in the shape PGlite's `parsers` option takes. */
export const typeParsers: Record<number, (value: string) => unknown> = {
  [OID.int8]: keepText,
  [OID.numeric]: keepText,
  [OID.date]: keepText,
  [OID.timestamptz]: pg.types.getTypeParser(OID.timestamptz, 'text') as (value: string) => unknown,
};

/** The same parsers in the shape of pg's `types` client option. */
export const pgTypes = {
  getTypeParser(oid: number, format: string = 'text'): (value: string) => unknown {
    const parser = format === 'text' ? typeParsers[oid] : undefined;
    return parser ?? (pg.types.getTypeParser(oid, format as 'text') as (value: string) => unknown);
  },
};
