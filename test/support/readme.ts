// The runnable examples of the README and the guides, taken from their text, for the suites that replay
// them: test/ops/process.test.ts (and the Citus suite) runs the README's curl block of "Try it", test/readme-graphql.test.ts the
// README's GraphQL curl example and the GraphQL walk of docs/integrating.md. An example sits between two
// marker comments, <!-- NAME:start --> and <!-- NAME:end -->, invisible when the Markdown is rendered.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { DEMO_DEVICE_TAG } from '../../src/fixtures/demoIds.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The line every shell example of the README and the guides starts with; a replay points it at the service under test. */
export const README_BASE_LINE = 'BASE=http://localhost:4000';

/** A Markdown file of the repository, by its path from the root (README.md, docs/integrating.md). */
export function readDoc(path: string): string {
  return readFileSync(`${ROOT}${path}`, 'utf8');
}

export function readReadme(): string {
  return readDoc('README.md');
}

/** The text between <!-- NAME:start --> and <!-- NAME:end -->; throws when the text has no such pair. */
export function readmeSection(name: string, text: string = readReadme()): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`the text has no ${start} ... ${end} section`);
  return text.slice(from + start.length, to);
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
 * Runs a shell block of the README or a guide with bash under `set -euo pipefail` (a failed command fails the run), from
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

/** The one shell block of the section `name` of `text` (the README's by default). */
export function readmeShellBlock(name: string, text: string = readReadme()): string {
  const shell = fencedBlocks(readmeSection(name, text)).filter((block) => block.language === 'sh');
  if (shell.length !== 1) throw new Error(`the section ${name} should hold one sh block, has ${shell.length}`);
  return shell[0]!.body;
}

/** Every example of the README's "Try it" answered successfully, on the demo data: six partner bodies and the notification's. */
export function expectReadmeExamplesWork(result: ShellRun): void {
  expect(result.code, result.stderr).toBe(0);
  const bodies = result.stdout
    .replace(/}{/g, '}\n{')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  expect(bodies).toHaveLength(7);
  expect(bodies[0].data.message).toBe('payment of 20.00 USD recorded for device DTSTBBD');
  expect(bodies.slice(1).every((body: { valid: boolean }) => body.valid === true)).toBe(true);
  expect(bodies[6].payment).toMatchObject({ deviceTag: DEMO_DEVICE_TAG, remainingBalance: 180, fullyPaid: false });
}
