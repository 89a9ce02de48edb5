// Every link of the project's Markdown (README.md, CHANGELOG.md, docs/**/*.md) stays inside the
// repository and leads somewhere: a relative link names a file or folder that exists (and, into a
// Markdown file, a heading or an <a id="..."> anchor that exists), no link climbs out of the repository
// (../shared/... from the root), and no address is off this machine (http and https only to
// localhost). Text in code (fenced blocks, `spans`) and in HTML comments is not a link. The code cites
// the docs the same way (docs/legacy-contract.md#list-transactions in a comment): each such citation
// under src/, bench/ and test/ names a file and an anchor that exist.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(new URL('..', import.meta.url).pathname);

/** README.md, CHANGELOG.md and every Markdown file under docs/. */
function markdownFiles(): string[] {
  const files = ['README.md', 'CHANGELOG.md'].map((name) => join(ROOT, name));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(ROOT, 'docs'));
  return files;
}

/** The text outside fenced code blocks (blanked) and HTML comments (dropped). */
function outsideFences(text: string): string {
  let fence: string | null = null;
  const lines = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === null && marker) {
        fence = marker[0]!.repeat(marker.length);
        return '';
      }
      if (fence !== null) {
        if (marker?.startsWith(fence)) fence = null;
        return '';
      }
      return line;
    });
  return lines.join('\n');
}

/** A code span: between backticks, within one paragraph (it may cross a line break). */
const CODE_SPAN = /``(?:[^`]|`(?!`))*?``|`(?:[^`\n]|\n(?![ \t]*\n))*`/g;

/** The text a reader sees as prose: outside fences, with code spans blanked too. */
function proseOf(text: string): string {
  return outsideFences(text).replace(CODE_SPAN, ' ');
}

const LINK_PATTERNS: readonly RegExp[] = [
  // [text](target "title") and ![alt](target)
  /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
  // [label]: target
  /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm,
  // <https://...>, <mailto:...>
  /<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi,
  // bare addresses, which GitHub turns into links too
  /(?<![(<\w/])((?:https?:\/\/|www\.)[^\s<>)\]]+)/g,
  // HTML attributes
  /\b(?:href|src)\s*=\s*["']([^"']+)["']/g,
];

/** Every link target in the prose of a Markdown text. */
function linkTargets(text: string): string[] {
  const prose = proseOf(text);
  return LINK_PATTERNS.flatMap((pattern) =>
    [...prose.matchAll(pattern)].map((match) => match[1]!.replace(/^<|>$/g, '')),
  );
}

/** The anchor GitHub gives a heading: its text lowercased, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The anchors of a Markdown text: its headings' (a repeated heading gets -1, -2, ... as on GitHub) and
 * its explicit HTML anchors (<a id="..."> or name="..."), which stay put when a heading is reworded.
 */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of outsideFences(text).matchAll(/<a\s+(?:id|name)\s*=\s*["']([^"']+)["']/g)) anchors.add(match[1]!);
  const seen = new Map<string, number>();
  for (const match of outsideFences(text).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$/gm)) {
    const anchor = headingAnchor(match[1]!);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}

const CLIMBING_PATH = /^(?:\.\.\/)+[\w./-]*$/;

/**
 * Paths written as text that climb with ../: a word of the prose, or a whole code span such as
 * `../shared/spec/contract.md` (a span that merely holds one, like an import line, is code).
 */
function climbingPaths(text: string): string[] {
  const spans = [...outsideFences(text).matchAll(CODE_SPAN)].map((match) => match[0].replace(/^`+|`+$/g, '').trim());
  const words = proseOf(text).split(/[\s()[\]"',;]+/);
  return [...spans, ...words].filter((word) => CLIMBING_PATH.test(word));
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What is wrong with the links of `text`, the Markdown file at `file`: one line per bad link. */
function linkProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  // A path named as text is a reference a reader follows too: none may lead out of the repository.
  for (const path of climbingPaths(text)) {
    const inside = relative(ROOT, resolve(dirname(file), path));
    if (inside.startsWith('..') || isAbsolute(inside)) {
      problems.push(`${relative(ROOT, file)}: ${path}: names a path outside the repository`);
    }
  }
  for (const target of linkTargets(text)) {
    const bad = (why: string) => problems.push(`${relative(ROOT, file)}: ${target}: ${why}`);
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('www.')) {
      let host: string | null = null;
      try {
        const url = new URL(target.startsWith('www.') ? `https://${target}` : target, 'https://invalid.invalid');
        if (url.protocol === 'http:' || url.protocol === 'https:') host = url.hostname;
      } catch {
        // not an address at all: refused below
      }
      if (host === null || !LOCAL_HOSTS.has(host)) bad('leaves the repository (only localhost addresses may be links)');
      continue;
    }
    const [pathPart, fragment] = target.split('#', 2) as [string, string | undefined];
    const path = decodeURIComponent(pathPart.split('?')[0]!);
    const resolved = path === '' ? file : path.startsWith('/') ? join(ROOT, path) : resolve(dirname(file), path);
    const inside = relative(ROOT, resolved);
    if (inside.startsWith('..') || isAbsolute(inside)) {
      bad('leaves the repository');
      continue;
    }
    if (resolved !== file && !existsSync(resolved)) {
      bad('no such file or folder in the repository');
      continue;
    }
    if (fragment !== undefined && resolved.endsWith('.md') && (resolved === file || statSync(resolved).isFile())) {
      const anchors = anchorsOf(resolved === file ? text : readFileSync(resolved, 'utf8'));
      if (!anchors.has(fragment)) bad(`no heading with the anchor #${fragment}`);
    }
  }
  return problems;
}

describe('Markdown links', () => {
  const files = markdownFiles();

  it('covers the README, the changelog and the docs', () => {
    const names = files.map((file) => relative(ROOT, file));
    expect(names).toEqual(
      expect.arrayContaining([
        'README.md',
        'CHANGELOG.md',
        'docs/README.md',
        'docs/legacy-contract.md',
        'docs/decisions.md',
        'docs/demo-data.md',
        'docs/versioning.md',
        'docs/integrating.md',
        'docs/operating.md',
        'docs/architecture.md',
        'docs/performance.md',
      ]),
    );
    // The README reaches the documentation through links this test checks.
    const readmeTargets = linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(readmeTargets).toEqual(
      expect.arrayContaining([
        'docs/README.md',
        'docs/legacy-contract.md',
        'docs/integrating.md',
        'docs/operating.md',
        'docs/architecture.md',
        'docs/performance.md',
      ]),
    );
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))(
    '%s: every link stays in the repository and leads somewhere',
    (_name, file) => {
      expect(linkProblems(file, readFileSync(file, 'utf8'))).toEqual([]);
    },
  );
});

/** Every .ts file under src/, bench/ and test/ (generated code and node_modules aside). */
function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A citation of a doc's anchor in code: docs/<name>.md#<anchor>. */
const DOC_CITATION = /\bdocs\/([\w-]+\.md)#([\w-]+)/g;

/** What is wrong with the doc citations of a code file's text: one line per citation that leads nowhere. */
function citationProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(DOC_CITATION)) {
    const doc = join(ROOT, 'docs', match[1]!);
    if (!existsSync(doc)) problems.push(`${file}: ${match[0]}: no such doc`);
    else if (!anchorsOf(readFileSync(doc, 'utf8')).has(match[2]!))
      problems.push(`${file}: ${match[0]}: no such anchor`);
  }
  return problems;
}

describe('citations of the docs in the code', () => {
  const files = ['src', 'bench', 'test'].flatMap(codeFiles);

  it('name a doc and an anchor that exist', () => {
    const cited = files.flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(DOC_CITATION)]);
    // The legacy mappers cite the contract's sections: the check has something to check.
    expect(cited.length).toBeGreaterThan(5);
    expect(
      files
        .filter((file) => file !== join('test', 'readme-links.test.ts'))
        .flatMap((file) => citationProblems(file, readFileSync(join(ROOT, file), 'utf8'))),
    ).toEqual([]);
  });

  it('refuses a citation of a missing anchor or doc', () => {
    expect(
      citationProblems(
        'x.ts',
        '// docs/legacy-contract.md#no-such-anchor, docs/no-such-doc.md#errors, docs/legacy-contract.md#errors',
      ),
    ).toEqual([
      'x.ts: docs/legacy-contract.md#no-such-anchor: no such anchor',
      'x.ts: docs/no-such-doc.md#errors: no such doc',
    ]);
  });
});

describe('the link checker', () => {
  const inDocs = join(ROOT, 'docs', 'example.md');
  const check = (text: string) => linkProblems(inDocs, text);

  it('accepts links to files, folders and headings of the repository, and to localhost', () => {
    expect(
      check(
        [
          '# A heading, with `code`',
          '[up](../README.md), [there](../README.md#code-map), [here](#a-heading-with-code), [kept](#kept),',
          '[folder](../test/golden), ![chart](../bench/results.svg), [local](http://localhost:4000/graphql)',
          '<a id="kept"></a>',
          '[ref]: ./decisions.md#4-money',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('refuses links out of the repository, to missing files or headings, and to other hosts', () => {
    const problems = check(
      [
        '[spec](../../shared/spec/contract.md)',
        '[gone](./no-such-file.md)',
        '[anchor](../README.md#no-such-heading)',
        '[web](https://example.com/page)',
        '<https://example.org>',
        'see http://example.net for more',
        '[mail](mailto:someone@example.com)',
        'The contract (`../../shared/spec/contract.md`) is not in a clone.',
      ].join('\n'),
    );
    expect(problems).toHaveLength(9);
    // Paths named as text come first, then the links.
    expect(problems[0]).toMatch(/\.\.\/\.\.\/shared\/spec\/contract\.md: names a path outside the repository/);
    expect(problems[1]).toMatch(/\.\.\/\.\.\/shared\/spec\/contract\.md: names a path outside the repository/);
    expect(problems[2]).toMatch(/shared\/spec\/contract\.md: leaves the repository/);
    expect(problems[3]).toMatch(/no such file/);
    expect(problems[4]).toMatch(/no heading with the anchor #no-such-heading/);
    expect(problems.slice(5).every((problem) => problem.includes('leaves the repository'))).toBe(true);
  });

  it('reads no link inside code or comments', () => {
    expect(
      check(
        [
          '```sh',
          'curl https://example.com/in-a-fence [x](../../outside.md)',
          '```',
          'Inline `https://example.com/in-code` and `[x](./outside.md)` are text.',
          '<!-- [hidden](https://example.com) -->',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
