// npm 11 runs no dependency's install script that package.json's allowScripts does not allow, and ends
// every install with a warning naming the scripts not yet reviewed (decisions.md 39). Each one of the
// installed tree is reviewed: `npm install-scripts ls` (offline, reading node_modules) lists none, so a
// new dependency with an install script fails here until someone allows or denies it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const unreviewed = spawnSync('npm', ['install-scripts', 'ls', '--json', '--offline'], {
  cwd: ROOT,
  encoding: 'utf8',
  timeout: 120_000,
});
// npm 10 (Node 20's own) has no such command and runs every script: nothing to settle there.
const npmReviewsScripts = unreviewed.status === 0 || !/Unknown command/i.test(unreviewed.stderr + unreviewed.stdout);

describe.skipIf(!npmReviewsScripts)("dependencies' install scripts", () => {
  it('leaves none unreviewed: npm install prints no install-scripts warning', () => {
    expect(unreviewed.status, unreviewed.stderr).toBe(0);
    expect(JSON.parse(unreviewed.stdout)).toEqual({ allowScripts: [] });
  });

  it('denies the three the tree has, by name (a later version stays denied)', () => {
    const { allowScripts } = JSON.parse(readFileSync(new URL('package.json', `file://${ROOT}`), 'utf8'));
    expect(allowScripts).toEqual({ '@apollo/protobufjs': false, '@scarf/scarf': false, esbuild: false });
  });
});
