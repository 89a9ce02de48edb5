// The book's ratios (decisions.md 45): a fraction of two exact sums written to 4 places, rounded half
// up in bigint arithmetic (never a float: 0.79545 must not become 0.7954), null when there is nothing
// to divide by. Every ratio of portfolioMetrics, of the history and of the files goes through here.

import type { PortfolioSums } from './rows.js';

const PLACES = 4;
const SCALE = 10n ** BigInt(PLACES);

/** numerator ÷ denominator to 4 places, half up ("0.7955"); null when the denominator is 0. Both are counts or minor units, never negative. */
export function formatRatio(numerator: bigint | number, denominator: bigint | number): string | null {
  const top = BigInt(numerator);
  const bottom = BigInt(denominator);
  if (bottom === 0n) return null;
  const scaled = (top * SCALE * 2n + bottom) / (bottom * 2n);
  const whole = scaled / SCALE;
  const fraction = (scaled % SCALE).toString().padStart(PLACES, '0');
  return `${whole}.${fraction}`;
}

/** Every ratio of a group's sums (decisions.md 45): what the graph's PortfolioMetrics and the history's file show. */
export function portfolioRatiosOf(sums: PortfolioSums) {
  return {
    par30: formatRatio(sums.par30Minor, sums.outstandingMinor),
    par60: formatRatio(sums.par60Minor, sums.outstandingMinor),
    par90: formatRatio(sums.par90Minor, sums.outstandingMinor),
    collectionRate: formatRatio(sums.collectedMinor, sums.dueMinor),
    firstPaymentDefaultRate: formatRatio(sums.firstPaymentDefaulted, sums.firstPaymentEligible),
    lockedShare: formatRatio(sums.lockedOrders, sums.openOrders),
    // writtenOff ÷ ((start + end) / 2), as writtenOff × 2 ÷ (start + end): exact integers throughout.
    writeOffRatio: formatRatio(sums.writtenOffMinor * 2n, sums.periodStartOutstandingMinor + sums.outstandingMinor),
  };
}
