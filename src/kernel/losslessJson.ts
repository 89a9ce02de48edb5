// JSON as the payments bodies are read: every number keeps its source text (lossless-json's
// LosslessNumber), so "18.999999999999999" reaches the money rules as written instead of as 19, and a
// member name given twice in one object is refused instead of silently keeping the last value.
import { isLosslessNumber, type LosslessNumber, parse } from 'lossless-json';

/** How deeply a payments body may nest (the top-level object is level 1). */
export const MAX_JSON_DEPTH = 32;

/** Why a JSON text was refused, said of the text ("is not valid JSON"). */
export class JsonTextError extends Error {
  override name = 'JsonTextError';
}

export type JsonNumber = LosslessNumber;

export function isJsonNumber(value: unknown): value is JsonNumber {
  return isLosslessNumber(value);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const WHITESPACE = /[ \t\n\r]/;

const duplicateMember = (name: string) =>
  new JsonTextError(`names the member ${JSON.stringify(name).slice(0, 80)} more than once in one object`);

/**
 * One pass over the text without recursion: whether it nests past `maxDepth`, and the first member
 * name an object repeats. It runs before the parse because the parse recurses once per level, and it
 * sees repeats the parse lets through (lossless-json only objects to a repeat with another value).
 * Malformed text may mislead it; the parse refuses such text anyway. (Its depth is never below the
 * parse's: it counts every bracket outside strings, where the parse stops at the first fault.)
 */
function scanStructure(text: string, maxDepth = MAX_JSON_DEPTH): { tooDeep: boolean; duplicate?: string } {
  // One entry per open object (its member names so far) or array (null).
  const open: Array<Set<string> | null> = [];
  let duplicate: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      const names = open.at(-1);
      if (!names || duplicate !== undefined) continue;
      let next = i + 1;
      while (WHITESPACE.test(text.charAt(next))) next++;
      if (text.charAt(next) !== ':') continue;
      const name = decodedString(text.slice(start, i + 1));
      if (name === undefined) continue;
      if (names.has(name)) duplicate = name;
      else names.add(name);
    } else if (code === 0x7b || code === 0x5b) {
      open.push(code === 0x7b ? new Set() : null);
      if (open.length > maxDepth) return { tooDeep: true };
    } else if (code === 0x7d || code === 0x5d) {
      open.pop();
    }
  }
  return { tooDeep: false, duplicate };
}

/** A member name as JSON means it ("\u0061" is "a"); undefined for a malformed string. */
function decodedString(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

// lossless-json says where its parse stopped at the end of its message ("... at position 12"): the
// offset, in UTF-16 code units, of the first character that is not JSON (the text's length at its end).
const PARSE_POSITION = /at position (\d+)$/;
// The depth to which jsonFault looks for the fault of a text that is not the payments' (the parse
// recurses once per level: far below what the stack holds).
const LOCATABLE_DEPTH = 1000;
const NOT_WHITESPACE = /[^ \t\n\r]/;

// A letter, mark, digit, punctuation or symbol shows as itself; anything else (a control, a format
// character such as a byte order mark, a separator) as its escape ("\n", "\ufeff"), so it can be seen.
const VISIBLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const quotedCharacter = (character: string) =>
  VISIBLE.test(character)
    ? JSON.stringify(character)
    : JSON.stringify(character).replace(
        /[^\x20-\x7e]/g,
        (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );

/**
 * A place in a JSON text as a person finds it: `unexpected "}" at line 3, column 14` (lines end at
 * \n; line and column from 1, columns in characters), or `unexpected end of the body at ...`. Only the
 * one character found is quoted, as a JSON string: nothing more of the text is repeated. Linear.
 */
function describeJsonPlace(text: string, offset: number): string {
  const lineStart = offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < lineStart; i = text.indexOf('\n', i + 1)) line++;
  const column = Array.from(text.slice(lineStart, offset)).length + 1;
  const found =
    offset < text.length
      ? `unexpected ${quotedCharacter(String.fromCodePoint(text.codePointAt(offset)!))}`
      : 'unexpected end of the body';
  return `${found} at line ${line}, column ${column}`;
}

/** The place a lossless-json parse error names, described; undefined for any other error. */
function faultOf(error: unknown, text: string): string | undefined {
  if (!(error instanceof SyntaxError)) return undefined;
  const position = PARSE_POSITION.exec(error.message)?.[1];
  return position === undefined ? undefined : describeJsonPlace(text, Math.min(Number(position), text.length));
}

/**
 * Where a text that a JSON parser refused stops being JSON (describeJsonPlace), found again by
 * lossless-json, member names given twice allowed as JSON.parse allows them; `objectOrArray`: a text
 * that does not begin with { or [ is refused at its first character (Express's strict parser).
 * Undefined when no fault is found, or the text nests too deeply to look. Linear in the text's size.
 */
export function jsonFault(text: string, options: { objectOrArray?: boolean } = {}): string | undefined {
  if (options.objectOrArray) {
    const first = text.search(NOT_WHITESPACE);
    if (first === -1) return describeJsonPlace(text, text.length);
    if (text[first] !== '{' && text[first] !== '[') return describeJsonPlace(text, first);
  }
  if (scanStructure(text, LOCATABLE_DEPTH).tooDeep) return undefined;
  try {
    parse(text, null, { onDuplicateKey: ({ newValue }) => newValue });
    return undefined;
  } catch (error) {
    return faultOf(error, text);
  }
}

/** The refusal of a text that is not JSON, with the place when it is known. */
export const notValidJson = (fault: string | undefined) => `is not valid JSON${fault ? `: ${fault}` : ''}`;

/**
 * Parses JSON text with numbers as JsonNumber (their source text kept). Refuses, with a JsonTextError
 * saying why: malformed text (and where), nesting past MAX_JSON_DEPTH, a member name repeated in one object.
 */
export function parseLosslessJson(text: string): unknown {
  const structure = scanStructure(text);
  if (structure.tooDeep) throw new JsonTextError(`nests more than ${MAX_JSON_DEPTH} levels deep`);
  let value: unknown;
  try {
    value = parse(text, null, {
      onDuplicateKey: ({ key }) => {
        throw duplicateMember(key);
      },
    });
  } catch (error) {
    if (error instanceof JsonTextError) throw error;
    throw new JsonTextError(notValidJson(faultOf(error, text)));
  }
  if (structure.duplicate !== undefined) throw duplicateMember(structure.duplicate);
  return value;
}

/**
 * The value with every JsonNumber as the JavaScript number JSON.parse would have made of it, for
 * checks that look at types (a JSON Schema); amounts are read from the text, never from this.
 * Recursive: callers bound the depth first (MAX_JSON_DEPTH).
 */
export function plainJson(value: unknown): unknown {
  if (isJsonNumber(value)) return Number(value.value);
  if (Array.isArray(value)) return value.map(plainJson);
  if (value && typeof value === 'object') {
    const plain: Record<string, unknown> = {};
    // defineProperty: a member named "__proto__" stays an ordinary member, as JSON.parse keeps it.
    for (const [name, item] of Object.entries(value))
      Object.defineProperty(plain, name, {
        value: plainJson(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return plain;
  }
  return value;
}

/** The text of a JSON number as it was written, or the shortest text of a JavaScript number. */
export function numberText(value: JsonNumber | number): string {
  return isJsonNumber(value) ? value.value : String(value);
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A JSON number's exact value as canonical text, digits and a power of ten ("1.50", "15e-1" and
 * "0.150e1" all give "15e-1"), so equal values compare equal without binary floating point.
 */
export function canonicalNumber(text: string): string {
  const match = NUMBER.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = (whole! + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let power = BigInt(exponent) - BigInt(fraction.length);
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  power += BigInt(trailing);
  return `${sign}${digits}e${power}`;
}
