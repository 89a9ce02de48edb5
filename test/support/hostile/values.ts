// Hostile input's values, generated with fast-check (test/rest/hostile-properties*.test.ts): texts,
// JSON and query strings a hostile caller sends, each bounded so a run stays short.
import fc from 'fast-check';

export const RUNS = { numRuns: 40, seed: 20_260_611 };

// ---- Hostile values ----------------------------------------------------------------------------

export const SQL = [
  "' or 1=1 --",
  "'; drop table payments; --",
  '" or ""="',
  "') or ('a'='a",
  '1; select pg_sleep(5) --',
  "' union select key_hash from api_keys --",
  '%',
  '_',
  '\\',
  "\\'",
  '$1',
  '?',
  '/*',
  '--',
];
export const PATHS = [
  '../../etc/passwd',
  '%2e%2e/',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '....//....//',
  '..%c0%af',
  'file:///etc/passwd',
  '.',
  '..',
];
export const NUMERIC = [
  '1e3',
  '-0',
  '0.000000001',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '-Infinity',
  '1,5',
  ' 1',
  '1 ',
  '0x10',
  '0b101',
  '1_000',
  '+1',
  '-1',
  '0',
  '00',
  '.5',
  '5.',
  '1.2.3',
  '1e-7',
  '1E308',
  '-1e308',
  '5e-324',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '253402300800',
  '99999999999',
  `0.${'0'.repeat(40)}1`,
  `1.${'5'.repeat(30)}`,
  `${'9'.repeat(20)}.${'9'.repeat(20)}`,
  '9'.repeat(21),
  '١٢٣',
  '１８',
  '18.00\u0000',
  '18.00\n',
  '\t18.00',
];
export const ODD = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\n',
  '\u200b',
  '\ufeff',
  '\u202e',
  '\ud800',
  '\udfff',
  'null',
  'undefined',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant as literal text
  '${7*7}',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗̻̲',
  '__proto__',
  'constructor',
  'demo-operator-key',
];
export const control = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f }))
    .map((code) => String.fromCharCode(code)),
  minLength: 1,
  maxLength: 8,
});

/** Short hostile text: fixed fragments, unicode (graphemes, any code point, control characters). */
export const shortHostile = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SQL, ...PATHS, ...NUMERIC, ...ODD) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
  { weight: 1, arbitrary: control },
);
// 10k+ characters. In a query string only characters URLSearchParams leaves as one byte: Node
// refuses a request line over 16 kB (431) before the service sees it.
export const longQueryText = fc
  .tuple(fc.constantFrom('a', '9', 'x-', ' ', '*', '.5', '0.'), fc.integer({ min: 10_000, max: 11_000 }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
export const longJsonText = fc.oneof(
  longQueryText,
  fc.string({ unit: 'grapheme', minLength: 10_000, maxLength: 10_000 }),
  fc.constantFrom('é'.repeat(12_000), '😀'.repeat(10_000), "' or 1=1 --".repeat(1_000), '\u0000'.repeat(10_000)),
);
/** Hostile text for a parameter whose valid value is `valid`: alone, or glued to the valid value. */
export const hostileText = (valid: string, long = longQueryText) =>
  fc.oneof(
    { weight: 6, arbitrary: shortHostile },
    { weight: 1, arbitrary: long },
    { weight: 2, arbitrary: shortHostile.map((text) => valid + text) },
    { weight: 1, arbitrary: shortHostile.map((text) => text + valid) },
  );
export const nested = (depth: number): unknown => (depth === 0 ? 'x' : [nested(depth - 1)]);
/** Any JSON value where `valid` belongs: wrong types, edge numbers, nesting, hostile text. */
export const hostileJson = (valid: string) =>
  fc.oneof(
    { weight: 5, arbitrary: hostileText(valid, longJsonText) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(
        null,
        true,
        false,
        0,
        -0,
        1,
        -1,
        0.5,
        1e308,
        -1e308,
        Number.MIN_VALUE,
        2 ** 53 + 2,
        1e21,
        // biome-ignore lint/correctness/noPrecisionLoss: a number past double precision, on purpose
        99999999999999999999,
        0.1 + 0.2,
        4000012,
        123456789012362,
      ),
    },
    { weight: 1, arbitrary: fc.oneof(fc.double(), fc.integer()) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>([valid], { value: valid }, { $gt: '' }, { $ne: null }, [], {}) },
    { weight: 1, arbitrary: fc.integer({ min: 28, max: 40 }).map(nested) },
  );
// JSON text only a hand-written body can carry: -0, out-of-range numbers, escapes of NUL and lone surrogates.
export const RAW_JSON = [
  '-0',
  '-0.0',
  '0e0',
  '1e308',
  '1e999',
  '-1e999',
  '99999999999999999999999',
  '123456789012345678901234567890',
  '0.000000001',
  '1E3',
  '1.0',
  '0.01e0',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\u0000DTSTBBD"',
  '[[[[[[[[[[]]]]]]]]]]',
  '{"$gt":""}',
];
// Query text written by hand: malformed or double percent-encoding, encoded separators, CRLF.
export const RAW_QUERY = [
  '%00',
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%FF%FE%FD',
  '%C0%AE%C0%AE%2F',
  '%2e%2e%2f%2e%2e%2f',
  '..%252f..%252f',
  '%0d%0aSet-Cookie:%20x=1',
  '+',
  '%20',
  '%2B',
  'a%26key%3Ddemo-operator-key',
  '%u0041',
  '%E2%80%AE',
  '%F0%9F%98%80',
];
export const rawQueryText = fc.oneof(
  fc.constantFrom(...RAW_QUERY),
  fc.string({
    unit: fc.constantFrom('%', '0', 'A', 'f', 'E', '2', '&', '=', '+', ';', '?', '/', '.', 'é'),
    minLength: 1,
    maxLength: 20,
  }),
);
