// A ratio of the book's figures (docs/decisions.md 45): a decimal string to 4 places, rounded half up
// from the exact fraction in bigint arithmetic, null when there is nothing to divide by.
// (A minimal version for report runs; the book's own replaces it.)

const PLACES = 4;
const SCALE = 10n ** BigInt(PLACES);

/** numerator ÷ denominator to 4 places, half up (away from zero); null when the denominator is 0. */
export function formatRatio(numerator: bigint, denominator: bigint): string | null {
  if (denominator === 0n) return null;
  const negative = numerator < 0n !== denominator < 0n && numerator !== 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const scaled = (n * SCALE * 2n + d) / (2n * d);
  const whole = scaled / SCALE;
  const fraction = (scaled % SCALE).toString().padStart(PLACES, '0');
  return `${negative && scaled !== 0n ? '-' : ''}${whole}.${fraction}`;
}
