// The only place where arithmetic on money happens. Amounts are integers in the currency's minor
// units (bigint in code, bigint in Postgres); decimal text is parsed and formatted here and nowhere
// else. Amounts that are combined travel as Money (minor units with their currency), whose arithmetic
// refuses a currency mismatch. Binary floating point never takes part in a calculation: `toJsonNumber`
// exists only because the legacy contract serialises some amounts as JSON numbers (decimalToJsonNumber),
// applied last, to output.

/** ISO 4217 minor units of the currencies the service accepts. */
const MINOR_UNITS: Readonly<Record<string, number>> = {
  USD: 2,
  MXN: 2,
  EUR: 2,
  GBP: 2,
  CAD: 2,
  BRL: 2,
  COP: 2,
  PEN: 2,
  ARS: 2,
  GTQ: 2,
  DOP: 2,
  PHP: 2,
  INR: 2,
  IDR: 2,
  KES: 2,
  NGN: 2,
  GHS: 2,
  ZAR: 2,
  EGP: 2,
  TZS: 2,
  PKR: 2,
  BDT: 2,
  CLP: 0,
  JPY: 0,
  KRW: 0,
  VND: 0,
  UGX: 0,
  XOF: 0,
  XAF: 0,
  PYG: 0,
  RWF: 0,
  KWD: 3,
  BHD: 3,
  JOD: 3,
  OMR: 3,
  TND: 3,
  LYD: 3,
  IQD: 3,
};

export const SUPPORTED_CURRENCIES: readonly string[] = Object.keys(MINOR_UNITS).sort();

export class MoneyError extends Error {
  override name = 'MoneyError';
}

export function isSupportedCurrency(code: string): boolean {
  return Object.hasOwn(MINOR_UNITS, code);
}

export function minorUnitsOf(currency: string): number {
  const units = MINOR_UNITS[currency];
  if (units === undefined) throw new MoneyError(`unsupported currency "${currency}"`);
  return units;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

const isDigit = (code: number) => code >= 48 && code <= 57; // '0' to '9'

/** Where the run of digits of `text` from `at` ends. */
function digitsEnd(text: string, at: number): number {
  while (at < text.length && isDigit(text.charCodeAt(at))) at++;
  return at;
}

/** The most digits a Decimal has either side of its point. */
const DECIMAL_DIGITS = 20;

/**
 * Whether text is written as a Decimal ("18", "-0.10"): one syntax for the graph's scalar, REST
 * params, filters, `-?\d{1,20}(\.\d{1,20})?` whole. Syntax only, as both doors take an amount: which
 * amounts a currency or a payment allows is parseAmount's and the payment rules' decision. Read by
 * char code: the Decimal scalar checks every amount the service answers, and the regular
 * expression's call cost about twice the loop.
 */
export function isDecimalText(text: string): boolean {
  const length = text.length;
  let at = text.charCodeAt(0) === 45 ? 1 : 0; // '-'
  const wholeStart = at;
  at = digitsEnd(text, at);
  const wholeDigits = at - wholeStart;
  if (wholeDigits < 1 || wholeDigits > DECIMAL_DIGITS) return false;
  if (at === length) return true;
  if (text.charCodeAt(at) !== 46) return false; // '.'
  const fractionStart = ++at;
  at = digitsEnd(text, at);
  const fractionDigits = at - fractionStart;
  return at === length && fractionDigits >= 1 && fractionDigits <= DECIMAL_DIGITS;
}

/** Decimal text without trailing fraction zeros: how in-store amounts were hashed before fingerprints. */
export function normaliseDecimal(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  const trimmedFraction = fraction.replace(/0+$/, '');
  return trimmedFraction ? `${whole}.${trimmedFraction}` : whole!;
}

/**
 * Parses decimal text ("18", "18.5", "18.50", "-0.10") into minor units of `currency`. Zeros past
 * the currency's places change no value ("4.000" is 4.00 USD, decisions.md 37); any other digit past
 * them is an error, never a rounding.
 */
export function parseAmount(text: string, currency: string): bigint {
  const units = minorUnitsOf(currency);
  const match = DECIMAL.exec(text);
  if (!match) throw new MoneyError(`"${text}" is not a decimal amount`);
  const [, sign, whole, fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(units))) {
    throw new MoneyError(`${currency} amounts have at most ${units} decimal places, got "${text}"`);
  }
  const minor = BigInt(whole! + fraction.slice(0, units).padEnd(units, '0'));
  return sign === '-' ? -minor : minor;
}

/** Exponents a JSON number amount may carry: "1E3" is an amount; "1e999" is left for the rules to refuse. */
const MAX_EXPONENT = 40;

/**
 * A JSON number's source text as plain decimal text, exactly and keeping its places: "1E3" -> "1000",
 * "1850e-2" -> "18.50". Text without an exponent, or with one past 40, is returned as written.
 */
export function decimalOfJsonNumber(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = '', exponentText] = match;
  const exponent = Number(exponentText);
  if (!(Math.abs(exponent) <= MAX_EXPONENT)) return text;
  const digits = whole! + fraction;
  // Where the decimal point falls among the digits once the exponent is applied.
  const point = whole!.length + exponent;
  const wholePart = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
  const fractionPart = point <= 0 ? '0'.repeat(-point) + digits : digits.slice(point);
  return `${sign}${wholePart.replace(/^0+(?=\d)/, '')}${fractionPart ? `.${fractionPart}` : ''}`;
}

/**
 * An amount as idempotency compares requests: its value in the currency's minor units, so "18",
 * "18.00" and 18 are one amount; text the currency cannot hold (refused by the money rules) as written.
 */
export function amountIdentity(text: string, currency: string): string {
  try {
    return `minor:${parseAmount(text, currency)}`;
  } catch (error) {
    if (error instanceof MoneyError) return `text:${text}`;
    throw error;
  }
}

/**
 * Whether text is an integer in canonical form ("0", "18", "-5"; not "-0", "007", " 5"), as the
 * driver hands int8: such text is cut as it is, without a BigInt. Read by char code rather than by a
 * regular expression: it runs for every amount of every list, where the expression's call costs
 * about twice the loop.
 */
function isCanonicalInteger(text: string): boolean {
  const length = text.length;
  const at = text.charCodeAt(0) === 45 ? 1 : 0; // '-'
  if (at >= length) return false;
  const first = text.charCodeAt(at);
  if (first === 48) return length === 1; // '0' alone: "-0" and leading zeros are not canonical
  return isDigit(first) && digitsEnd(text, at + 1) === length;
}

/**
 * The fraction of an amount, with its point, by the value of its last `places` digits (".00" to ".99"
 * for 2 places), made once: formatting an amount then allocates its whole part and the result only,
 * where cutting the fraction and joining three pieces made four strings of every amount.
 */
const FRACTIONS: Readonly<Record<number, readonly string[]>> = Object.fromEntries(
  [...new Set(Object.values(MINOR_UNITS))]
    .filter((places) => places > 0)
    .map((places) => [
      places,
      Array.from({ length: 10 ** places }, (_, value) => `.${String(value).padStart(places, '0')}`),
    ]),
);

/**
 * Formats minor units as decimal text with exactly the currency's places: 1800n USD -> "18.00". It
 * runs for every amount of every list (a 5,000-row page formats tens of thousands), so canonical
 * integer text is cut as text; anything else goes through BigInt first.
 */
export function formatAmount(minor: bigint | string, currency: string): string {
  const units = minorUnitsOf(currency);
  const text = typeof minor === 'string' && isCanonicalInteger(minor) ? minor : BigInt(minor).toString();
  if (units === 0) return text;
  const negative = text.charCodeAt(0) === 45; // '-'
  const point = text.length - units;
  if (point > (negative ? 1 : 0)) {
    // A whole part of one digit or more: it, then the kept fraction of the last `units` digits.
    let fraction = 0;
    for (let at = point; at < text.length; at++) fraction = fraction * 10 + text.charCodeAt(at) - 48;
    return text.slice(0, point) + FRACTIONS[units]![fraction];
  }
  // Less than one unit of the currency: "0." and the digits padded to its places.
  const digits = negative ? text.slice(1) : text;
  return `${negative ? '-' : ''}0.${digits.padStart(units, '0')}`;
}

/**
 * formatAmount's text, or the error it raised (a currency this module does not know): for an amount
 * formatted as its row is read, whose field then fails as a resolver's throw would, not its row.
 */
export function formatAmountOrError(minor: bigint | string, currency: string): string | Error {
  return textOrError(() => formatAmount(minor, currency));
}

/** An amount's text as `format` makes it, or the error it raised (formatAmountOrError's rule, for any amount). */
export function textOrError(format: () => string): string | Error {
  try {
    return format();
  } catch (error) {
    return error as Error;
  }
}

export function subtractMinor(minuend: bigint | string, subtrahend: bigint | string): bigint {
  return BigInt(minuend) - BigInt(subtrahend);
}

export function minMinor(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/**
 * An amount with its currency, as dinero.js keeps them: the arithmetic below refuses to combine two
 * currencies, so a rule that forgets to check one cannot add pesos to dollars. A mismatch here is the
 * service's bug (a MoneyError, masked as any unexpected error); a caller's mismatch is refused first,
 * by name (CURRENCY_MISMATCH).
 */
export interface Money {
  readonly minor: bigint;
  readonly currency: string;
}

/** An amount of `currency` in minor units (a driver's int8 string or a bigint). */
export function money(minor: bigint | string, currency: string): Money {
  return { minor: BigInt(minor), currency };
}

function currencyOfBoth(a: Money, b: Money): string {
  if (a.currency !== b.currency) {
    throw new MoneyError(`cannot combine an amount in ${a.currency} with one in ${b.currency}`);
  }
  return a.currency;
}

export function addMoney(a: Money, b: Money): Money {
  return money(a.minor + b.minor, currencyOfBoth(a, b));
}

export function subtractMoney(a: Money, b: Money): Money {
  return money(a.minor - b.minor, currencyOfBoth(a, b));
}

export function minMoney(a: Money, b: Money): Money {
  currencyOfBoth(a, b);
  return a.minor <= b.minor ? a : b;
}

export function isMoreThan(a: Money, b: Money): boolean {
  currencyOfBoth(a, b);
  return a.minor > b.minor;
}

/** An amount times a whole number (monthly cost * months); a fractional factor is refused, never rounded. */
export function multiplyMoney(amount: Money, factor: number | bigint): Money {
  if (typeof factor === 'number' && !Number.isSafeInteger(factor)) {
    throw new MoneyError(`cannot multiply an amount by ${factor}`);
  }
  return money(amount.minor * BigInt(factor), amount.currency);
}

/** Decimal text with exactly the currency's places (formatAmount). */
export function formatMoney(amount: Money): string {
  return formatAmount(amount.minor, amount.currency);
}

const BASIS_POINTS = 10_000n;

/**
 * Commission on an amount at a rate in basis points, rounded half up to the currency's minor unit
 * (the one rounding rule for commission): 5% of 18.00 = 0.90; 5% of 0.01 = 0.00; 5% of 0.10 = 0.01.
 */
export function commissionOn(amount: bigint, rateBasisPoints: number): bigint {
  if (amount < 0n) throw new MoneyError('commission is computed on a positive amount');
  return (amount * BigInt(rateBasisPoints) + BASIS_POINTS / 2n) / BASIS_POINTS;
}

/** commissionOn for an amount with its currency: the commission is in the payment's currency. */
export function commissionOnMoney(amount: Money, rateBasisPoints: number): Money {
  return money(commissionOn(amount.minor, rateBasisPoints), amount.currency);
}

/**
 * How many whole days a paid amount buys when `perPeriod` buys `daysPerPeriod` days:
 * floor(paid * daysPerPeriod / perPeriod). Computed from the total, so many small payments never
 * lose a day to rounding.
 */
export function daysCovered(paid: bigint, perPeriod: bigint, daysPerPeriod: number): bigint {
  if (perPeriod <= 0n) throw new MoneyError('the period amount must be positive');
  return (paid * BigInt(daysPerPeriod)) / perPeriod;
}

/** How many more whole days `amount` buys paid on top of `paid`: daysCovered of the new total less that of `paid`. */
export function daysAddedBy(paid: bigint, amount: bigint, perPeriod: bigint, daysPerPeriod: number): bigint {
  return daysCovered(paid + amount, perPeriod, daysPerPeriod) - daysCovered(paid, perPeriod, daysPerPeriod);
}

/**
 * The least amount that, paid on top of `paid`, buys at least `days` more whole days by daysCovered's
 * rule: ceil((daysCovered(paid) + days) * perPeriod / daysPerPeriod) - paid, exactly. The one
 * rounding up of the day rule (daysCovered rounds down), so one minor unit less buys fewer days.
 */
export function amountForDays(paid: bigint, perPeriod: bigint, daysPerPeriod: number, days: bigint): bigint {
  if (days < 0n) throw new MoneyError('a number of days is never negative');
  const target = daysCovered(paid, perPeriod, daysPerPeriod) + days;
  const period = BigInt(daysPerPeriod);
  const totalNeeded = (target * perPeriod + period - 1n) / period;
  return totalNeeded - paid;
}

/** Parses a decimal amount and states why it cannot be a payment, or returns it in minor units. */
export function parsePaymentAmount(text: string, currency: string): { minor: bigint } | { problem: string } {
  let minor: bigint;
  try {
    minor = parseAmount(text, currency);
  } catch (error) {
    return { problem: (error as Error).message };
  }
  if (minor <= 0n) return { problem: `the amount must be more than zero, got "${text}"` };
  return { minor };
}

/**
 * A JSON number for a decimal string the money module formatted ("18.00" -> 18), for the contract
 * fields typed "number". The nearest double prints back as the same decimal for amounts of up to 15
 * significant digits, far beyond any instalment; exact values travel as Decimal strings elsewhere.
 */
export function decimalToJsonNumber(text: string): number {
  if (!DECIMAL.test(text)) throw new MoneyError(`"${text}" is not a decimal amount`);
  return Number(text);
}
