// The README's runnable examples, taken from the README text itself, for the suites that replay them:
// test/process.test.ts runs the curl block of "Try every endpoint", test/readme-graphql.test.ts the
// GraphQL walk and the GraphQL curl example. An example sits between two marker comments,
// <!-- NAME:start --> and <!-- NAME:end -->, invisible when the README is rendered.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The line every README shell example starts with; a replay points it at the service under test. */
export const README_BASE_LINE = 'BASE=http://localhost:4000';

export function readReadme(): string {
  return readFileSync(`${ROOT}README.md`, 'utf8');
}

/** The text between <!-- NAME:start --> and <!-- NAME:end -->; throws when the README has no such pair. */
export function readmeSection(name: string, readme: string = readReadme()): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`README.md has no ${start} ... ${end} section`);
  return readme.slice(from + start.length, to);
}

/** A fenced code block: its language, its text, and the HTML comment on the line before its fence. */
export interface FencedBlock {
  language: string;
  body: string;
  /** The text of a `<!-- ... -->` comment on the last non-empty line before the fence; null when there is none. */
  note: string | null;
}

/** Every fenced (```) block of `text`, in order. */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = text.split('\n');
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) {
      if (lines[i]!.trim() !== '') previous = lines[i]!.trim();
      continue;
    }
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^```\s*$/.test(lines[j]!)) body.push(lines[j++]!);
    if (j === lines.length) throw new Error(`a fence opened at line ${i + 1} is never closed`);
    const note = /^<!--\s*(.*?)\s*-->$/.exec(previous)?.[1] ?? null;
    blocks.push({ language: open[1]!, body: `${body.join('\n')}\n`, note });
    previous = '';
    i = j;
  }
  return blocks;
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a README shell block with bash under `set -euo pipefail` (a failed command fails the run), from
 * the repository's root, its BASE line pointed at `baseUrl`.
 */
export function runReadmeShell(block: string, baseUrl: string): Promise<ShellRun> {
  if (!block.includes(README_BASE_LINE)) throw new Error(`the block does not set ${README_BASE_LINE}`);
  const script = `set -euo pipefail\n${block.replace(README_BASE_LINE, `BASE=${baseUrl}`)}`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { PATH: process.env.PATH } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The one shell block of the README section `name`. */
export function readmeShellBlock(name: string): string {
  const shell = fencedBlocks(readmeSection(name)).filter((block) => block.language === 'sh');
  if (shell.length !== 1) throw new Error(`the README section ${name} should hold one sh block, has ${shell.length}`);
  return shell[0]!.body;
}
