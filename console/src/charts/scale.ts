// The arithmetic of drawing: a round top for an axis and its ticks. Numbers here only place marks;
// every figure shown as text comes from the graph's own strings (format.ts).

/** The smallest round number (1, 2, 2.5 or 5 times a power of ten) at or above `max`; 1 for nothing to show. */
export function roundCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}

/** Evenly spaced round ticks from 0 to `top` (a roundCeiling): quarters of 1 or 2, fifths of 2.5 or 5. */
export function ticksUpTo(top: number): number[] {
  const leading = top / 10 ** Math.floor(Math.log10(top));
  const count = leading === 2.5 || leading === 5 ? 5 : 4;
  return Array.from({ length: count + 1 }, (_, index) => (top * index) / count);
}

/** The indexes of `length` points worth a label on an axis: the first, the last, and a few between. */
export function labelledIndexes(length: number, labels = 4): number[] {
  if (length <= labels) return Array.from({ length }, (_, index) => index);
  const indexes = Array.from({ length: labels }, (_, index) => Math.round((index * (length - 1)) / (labels - 1)));
  return [...new Set(indexes)];
}
