// The bench stays readable: no function in bench/ (its files and folders) spans more than 150 lines.
// A failure names each such function, file, line and length.
//
// The files are read by a small scanner, not by the TypeScript compiler: a tokenizer that knows
// comments, strings, template literals (their ${} expressions scanned as code) and regular expression
// literals, then brace and parenthesis matching over the tokens. A function is
//   - `function name(...) {`, a method `name(...) {` (in a class or an object literal), with any
//     return type annotation between `)` and `{`;
//   - an arrow `(...) => ...` or `name => ...`, with a block body or an expression body (which ends at
//     the first `,`, `;` or unmatched closer at its own depth).
// Its length runs from the line of its name (or the arrow's opening parenthesis) to the line of its
// body's last token; a function inside another counts in both. Its limits, none of which the bench's
// code meets today: a regular expression after `}` or `)` is read as a division; a generic arrow's
// `<T>` and a method's decorators are not counted in its length; an expression-bodied arrow relies on
// semicolons (Biome writes them) rather than ASI to end; a `(` in a return type that is not a function
// type's parameter list may be taken for a parameter list.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const MAX_LINES = 150;

interface Token {
  text: string;
  line: number;
  /** An identifier or keyword (the scanner does not tell them apart). */
  word: boolean;
}

/** Keywords after which a `/` starts a regular expression, though they look like identifiers. */
const BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'case',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);
/** Words that take a parenthesised head and a block, as a function's name does. */
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof', 'await']);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let at = 0;
  /** For each open `{` in code: whether it opened a template's `${`, to resume the template at its `}`. */
  const braces: boolean[] = [];
  const push = (text: string, word = false) => tokens.push({ text, line, word });
  const advance = (to: number) => {
    for (let i = at; i < to; i++) if (source[i] === '\n') line += 1;
    at = to;
  };
  /** Reads template text from `at` (just after a backtick or a `}` closing `${`) to its end or next `${`. */
  const template = () => {
    let i = at;
    while (i < source.length) {
      if (source[i] === '\\') i += 2;
      else if (source[i] === '`') {
        advance(i + 1);
        push('`template`');
        return;
      } else if (source[i] === '$' && source[i + 1] === '{') {
        advance(i + 2);
        push('`template`');
        braces.push(true);
        return;
      } else i += 1;
    }
    advance(source.length);
  };
  while (at < source.length) {
    const char = source[at]!;
    const next = source[at + 1];
    if (/\s/.test(char)) advance(at + 1);
    else if (char === '/' && next === '/')
      advance(source.indexOf('\n', at) === -1 ? source.length : source.indexOf('\n', at));
    else if (char === '/' && next === '*') advance((source.indexOf('*/', at + 2) + 1 || source.length - 1) + 1);
    else if (char === '"' || char === "'") {
      let i = at + 1;
      while (i < source.length && source[i] !== char) i += source[i] === '\\' ? 2 : 1;
      advance(i + 1);
      push('"string"');
    } else if (char === '`') {
      advance(at + 1);
      template();
    } else if (/[A-Za-z_$0-9]/.test(char)) {
      const word = /^[A-Za-z_$0-9]+/.exec(source.slice(at, at + 200))![0];
      push(word, /^[A-Za-z_$]/.test(word));
      advance(at + word.length);
    } else if (char === '/') {
      const previous = tokens.at(-1);
      const division =
        previous !== undefined &&
        (previous.word ? !BEFORE_EXPRESSION.has(previous.text) : /^[)\]}"`0-9]/.test(previous.text));
      if (division) {
        push('/');
        advance(at + 1);
      } else {
        let i = at + 1;
        let inClass = false;
        while (i < source.length && (source[i] !== '/' || inClass)) {
          if (source[i] === '\\') i += 1;
          else if (source[i] === '[') inClass = true;
          else if (source[i] === ']') inClass = false;
          i += 1;
        }
        i += 1;
        while (/[a-z]/.test(source[i] ?? '')) i += 1;
        push('/regex/');
        advance(i);
      }
    } else if (char === '=' && next === '>') {
      push('=>');
      advance(at + 2);
    } else if (char === '{') {
      braces.push(false);
      push('{');
      advance(at + 1);
    } else if (char === '}') {
      if (braces.pop()) {
        advance(at + 1);
        template();
      } else {
        push('}');
        advance(at + 1);
      }
    } else {
      push(char);
      advance(at + 1);
    }
  }
  return tokens;
}

const OPENERS = new Map([
  ['(', ')'],
  ['[', ']'],
  ['{', '}'],
  ['<', '>'],
]);

/** The index of the token closing the bracket opened at `open` (`<` counts only angle brackets and those within). */
function matching(tokens: readonly Token[], open: number): number {
  const close = OPENERS.get(tokens[open]!.text)!;
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const text = tokens[i]!.text;
    if (text === tokens[open]!.text) depth += 1;
    else if (text === close) depth -= 1;
    else if (close !== '>' && OPENERS.has(text) && text !== '<') i = matching(tokens, i);
    if (depth === 0) return i;
  }
  return tokens.length - 1;
}

/** Past a type annotation starting at `at`: the index of the first token after it. */
function skipType(tokens: readonly Token[], at: number): number {
  let i = at;
  for (;;) {
    const text = tokens[i]?.text;
    if (text === undefined) return i;
    if (text === '{' || text === '(' || text === '[') i = matching(tokens, i) + 1;
    else if (tokens[i]!.word || text === '"string"' || text === '`template`') {
      i += 1;
      while (tokens[i]?.text === '.' || tokens[i]?.word) i += 1; // a.b, `x is T`, `keyof T`
    } else return i;
    while (tokens[i]?.text === '<' || tokens[i]?.text === '[') i = matching(tokens, i) + 1; // generics, T[]
    const after = tokens[i]?.text;
    if (after === '|' || after === '&') i += 1;
    else return i;
  }
}

/** Where a body starting at `body` ends: its matching `}`, or an expression's last token. */
function bodyEnd(tokens: readonly Token[], body: number): number {
  if (tokens[body]?.text === '{') return matching(tokens, body);
  let depth = 0;
  for (let i = body; i < tokens.length; i++) {
    const text = tokens[i]!.text;
    if (text === '(' || text === '[' || text === '{') depth += 1;
    else if (text === ')' || text === ']' || text === '}') {
      if (depth === 0) return i - 1;
      depth -= 1;
    } else if (depth === 0 && (text === ',' || text === ';')) return i - 1;
  }
  return tokens.length - 1;
}

interface FunctionSpan {
  name: string;
  line: number;
  lines: number;
}

/** Every function of a TypeScript source, with its first line and its length in lines. */
function functionSpans(source: string): FunctionSpan[] {
  const tokens = tokenize(source);
  const spans: FunctionSpan[] = [];
  const add = (name: string, startLine: number, body: number) =>
    spans.push({ name, line: startLine, lines: tokens[bodyEnd(tokens, body)]!.line - startLine + 1 });
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.word && tokens[i + 1]?.text === '=>') add(token.text, token.line, i + 2);
    if (token.text !== '(') continue;
    const close = matching(tokens, i);
    let after = close + 1;
    if (tokens[after]?.text === ':') after = skipType(tokens, after + 1);
    if (tokens[after]?.text === '=>') {
      add(nameBefore(tokens, i) ?? 'arrow', token.line, after + 1);
      continue;
    }
    if (tokens[after]?.text !== '{') continue;
    let head = i - 1;
    if (tokens[head]?.text === '>') while (head > 0 && tokens[head]!.text !== '<') head -= 1; // f<T>(
    if (tokens[head]?.text === '<') head -= 1;
    const named = tokens[head];
    if (named?.text === 'function') add('function', named.line, after);
    else if (named?.word && !CONTROL.has(named.text)) add(named.text, named.line, after);
  }
  return spans;
}

/** An arrow's name: the binding or property it is assigned to (`const name = (...) =>`, `name: (...) =>`). */
function nameBefore(tokens: readonly Token[], paren: number): string | undefined {
  let i = paren - 1;
  if (tokens[i]?.text === 'async') i -= 1;
  if (tokens[i]?.text === '=' || tokens[i]?.text === ':') return tokens[i - 1]?.word ? tokens[i - 1]!.text : undefined;
  return undefined;
}

/** The bench's own code: its files and folders, not its tests (bench/test/, whose describe blocks run long). */
function benchFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return entry.name === 'test' ? [] : benchFiles(join(dir, entry.name));
    return entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [];
  });
}

describe('the scanner', () => {
  it('measures function declarations, methods and arrows, not braces in strings, templates, regexes or comments', () => {
    const source = [
      'export async function first(a: number): Promise<{ x: number }> {', // 1
      "  const s = '}}}'; // }", // 2
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanned source's template, meant as literal text
      '  const t = `${a}}${`${"}"}`}`;', // 3
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanned source's template, meant as literal text
      '  const r = /[}/]+\\}/g.test(`${a / 2}`) ? a / 2 / a : 0;', // 4
      '  /* } */', // 5
      '  return { x: a };', // 6
      '}', // 7
      'const second = async (', // 8
      '  b: string,', // 9
      '): Promise<void> => {', // 10
      '  if (b) {', // 11
      '    console.log(b);', // 12
      '  }', // 13
      '};', // 14
      'const third = (c: number) =>', // 15
      '  c +', // 16
      '  1;', // 17
      'const o = {', // 18
      '  method(d: string): string {', // 19
      '    return d.split(",").map((part) => part.trim()).join();', // 20
      '  },', // 21
      '};', // 22
    ].join('\n');
    expect(functionSpans(source)).toEqual([
      { name: 'first', line: 1, lines: 7 },
      { name: 'second', line: 8, lines: 7 },
      { name: 'third', line: 15, lines: 3 },
      { name: 'method', line: 19, lines: 3 },
      { name: 'arrow', line: 20, lines: 1 },
    ]);
  });
});

describe('bench/', () => {
  it(`has no function over ${MAX_LINES} lines`, () => {
    const files = benchFiles(join(ROOT, 'bench'));
    const spans = files.flatMap((file) =>
      functionSpans(readFileSync(file, 'utf8')).map((span) => ({ file: relative(ROOT, file), ...span })),
    );
    // The scanner found the bench's functions at all (a scanner gone blind would pass the check below).
    expect(spans.length).toBeGreaterThan(50);
    const long = spans
      .filter((span) => span.lines > MAX_LINES)
      .map((span) => `${span.file}:${span.line} ${span.name} (${span.lines} lines)`);
    expect(long).toEqual([]);
  });
});
