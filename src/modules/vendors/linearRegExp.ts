// The regex engine for vendor schemas' `pattern` and `patternProperties` (ajv's code.regExp).
// JavaScript's backtracking RegExp can take exponential time (`^(a|a)*$` on "aaaa...!"), and a vendor
// schema is data an operator stores, so its patterns run on re2js: a pure-JS port of RE2 that matches
// in time linear in the input. It installs as plain JS on Node 20; the native `re2` package's current
// release needs Node 22+ and every release builds with node-gyp from an install script
// (docs/architecture.md#notes-on-choices).
import { RE2JS } from 're2js';

/** A pattern the linear engine cannot run; the message reads "has pattern "...", which <reason>". */
export class UnsupportedPattern extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`has pattern ${JSON.stringify(pattern)}, which ${reason}`);
    this.name = 'UnsupportedPattern';
  }
}

const RE2_LIMITS = 'vendor schema patterns run on a linear-time engine (RE2) without backreferences or lookaround';

/**
 * What RE2 lacks that ECMA-262 has, or what re2js's translation would silently change: found by
 * reading the pattern escape by escape, outside and inside character classes.
 */
function unsupportedSyntax(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      // re2js would turn \k<name> into the literal text "k<name>", and \8 into "8": refuse, never reinterpret.
      if (/[1-9]/.test(next)) return `uses a backreference (\\${next})`;
      if (next === 'k') return 'uses a named backreference (\\k<...>)';
      // RE2 matches code points, so an escaped UTF-16 surrogate half would never match anything.
      const unit = /^u\{?0*([dD][89a-fA-F][0-9a-fA-F]{2})/.exec(pattern.slice(i + 1));
      if (unit)
        return `escapes a UTF-16 surrogate (${unit[1]}): write the character itself or \\u{...} with its code point`;
      i++;
    } else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (!inClass && /^\(\?(=|!|<=|<!)/.test(pattern.slice(i, i + 4)))
      return 'uses lookaround ((?=, (?!, (?<= or (?<!)';
  }
  return null;
}

interface LinearRegExp {
  test(input: string): boolean;
  toString(): string;
}

/**
 * ajv's RegExpEngine: `pattern` must be valid ECMA-262 (JSON Schema's dialect, with ajv's flags) and
 * expressible in RE2; then it is compiled by re2js. Throws UnsupportedPattern otherwise.
 */
export function linearRegExp(pattern: string, flags: string): LinearRegExp {
  try {
    new RegExp(pattern, flags); // only parsed, never run: the schema must mean the same to any validator
  } catch (error) {
    throw new UnsupportedPattern(pattern, `is not a valid ECMA-262 regular expression (${(error as Error).message})`);
  }
  const unsupported = unsupportedSyntax(pattern);
  if (unsupported) throw new UnsupportedPattern(pattern, `${unsupported}; ${RE2_LIMITS}`);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    throw new UnsupportedPattern(
      pattern,
      `cannot be compiled by the linear-time engine (${(error as Error).message}); ${RE2_LIMITS}`,
    );
  }
  // ajv keys its compiled patterns by toString(): it must differ between patterns.
  return { test: (input) => compiled.test(input), toString: () => `/${pattern}/${flags}` };
}
// Read by ajv only for standalone code generation, which the service does not use.
linearRegExp.code = 'linearRegExp';
