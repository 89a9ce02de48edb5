// The graph's scalars. Money travels as exact decimal strings, time as Unix seconds.
//
// A value is checked once, whichever way it came: a literal in the document is first read into the
// value a variable would carry (valueFromASTUntyped: "18.5" a string, 18.5 a number, an enum word a
// string, an object an object), then checked by the same function as a variable. So the same bad value
// gets the same message either way; graphql-js puts `Variable "$x" got invalid value ...; ` before a
// variable's, naming the variable.
import { GraphQLError, GraphQLScalarType, type ValueNode, valueFromASTUntyped } from 'graphql';
import { isDecimalText, isSupportedCurrency } from './money.js';

const badInput = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

function parseDecimal(value: unknown): string {
  if (typeof value !== 'string' || !isDecimalText(value)) {
    throw badInput(`Decimal must be a decimal string such as "18.00", got ${JSON.stringify(value)?.slice(0, 40)}`);
  }
  return value;
}

/** An output value the service produced wrongly: its bug, so a plain error (masked), not BAD_USER_INPUT. */
function outputFailure(scalar: string, value: unknown): Error {
  return new Error(`${scalar} cannot serialise ${JSON.stringify(value)?.slice(0, 40)}`);
}

export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  serialize: (value) => {
    if (typeof value !== 'string' || !isDecimalText(value)) throw outputFailure('Decimal', value);
    return value;
  },
  parseValue: parseDecimal,
  parseLiteral: (ast, variables) => parseDecimal(valueFromASTUntyped(ast, variables ?? undefined)),
});

/** 9999-12-31T23:59:59Z: the last second Postgres and JavaScript dates both hold. */
const MAX_TIMESTAMP = 253_402_300_799;

function parseTimestamp(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > MAX_TIMESTAMP) {
    throw badInput(
      `Timestamp must be a whole number of seconds from 1970 to the year 9999, got ${JSON.stringify(value)?.slice(0, 40)}`,
    );
  }
  return value;
}

export const TimestampScalar = new GraphQLScalarType<number, number>({
  name: 'Timestamp',
  serialize: (value) => {
    if (value instanceof Date) return Math.floor(value.getTime() / 1000);
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw outputFailure('Timestamp', value);
    return value;
  },
  parseValue: parseTimestamp,
  parseLiteral: (ast, variables) => parseTimestamp(valueFromASTUntyped(ast, variables ?? undefined)),
});

function parseCurrency(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value)) {
    throw badInput(`CurrencyCode must be three capital letters (ISO 4217), got ${JSON.stringify(value)?.slice(0, 40)}`);
  }
  if (!isSupportedCurrency(value)) throw badInput(`currency ${value} is not supported`);
  return value;
}

export const CurrencyCodeScalar = new GraphQLScalarType<string, string>({
  name: 'CurrencyCode',
  serialize: (value) => String(value),
  parseValue: parseCurrency,
  parseLiteral: (ast, variables) => parseCurrency(valueFromASTUntyped(ast, variables ?? undefined)),
});

/** Any JSON value: nothing is refused, and a literal is read into the value a variable would carry. */
export const JSONScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast: ValueNode, variables) => valueFromASTUntyped(ast, variables ?? undefined),
});

// Only the behaviour goes to the schema: graphql-tools copies every property of what it is given onto
// the SDL's scalar, and a GraphQLScalarType's empty description would erase the SDL's documentation.
const behaviourOf = (scalar: GraphQLScalarType) => ({
  serialize: scalar.serialize,
  parseValue: scalar.parseValue,
  parseLiteral: scalar.parseLiteral,
});

export const scalarResolvers = {
  Decimal: behaviourOf(DecimalScalar),
  Timestamp: behaviourOf(TimestampScalar),
  CurrencyCode: behaviourOf(CurrencyCodeScalar),
  JSON: behaviourOf(JSONScalar),
};
