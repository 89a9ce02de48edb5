// The lock tests hold over what they write into the checkout itself (test/support/checkoutLock.ts): a
// second holder waits for the first to let go, and a lock whose holder is gone is taken over.
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { holdCheckoutLock } from './support/checkoutLock.js';

const SCRATCH = new URL('../.scratch/', import.meta.url).pathname;
const name = `checkout-lock-test-${process.pid}`;

it('is held by one holder at a time: the second gets it once the first lets go', async () => {
  const releaseFirst = await holdCheckoutLock(name);
  let firstReleased = false;
  const second = holdCheckoutLock(name).then((release) => {
    expect(firstReleased).toBe(true);
    return release;
  });
  await new Promise((resolve) => setTimeout(resolve, 1200)); // the second has tried, and waits
  firstReleased = true;
  releaseFirst();
  (await second)();
});

it('is taken over from a holder that is gone', async () => {
  mkdirSync(SCRATCH, { recursive: true });
  writeFileSync(`${SCRATCH}${name}.lock`, '2147483646\n'); // a pid no process has
  const release = await holdCheckoutLock(name, 5000);
  release();
});
