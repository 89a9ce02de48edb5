// The bench's chart (bench/chart.ts): legible, with no clipped label, and a
// ratio only where a scenario has a baseline.
import { describe, expect, it } from 'vitest';
import { type ChartRow, renderChart } from '../chart.js';

const rows: ChartRow[] = [
  {
    label: 'baseline: express + pg lookup (32 conn)',
    requestsPerSecond: 844.7,
    p50Ms: 36,
    p99Ms: 65,
    ratioToBaseline: null,
    baseline: true,
  },
  {
    label: 'REST lookup-customer (32 conn)',
    requestsPerSecond: 449.7,
    p50Ms: 68,
    p99Ms: 115,
    ratioToBaseline: 0.53,
    baselineRequestsPerSecond: 844.7,
  },
  {
    label: 'baseline: express + pg list, 10,000 rows (1 conn)',
    requestsPerSecond: 4.72,
    p50Ms: 208,
    p99Ms: 225,
    ratioToBaseline: null,
    baseline: true,
  },
  {
    label: 'REST list-transactions, 10,000 rows (1 conn)',
    requestsPerSecond: 4.1,
    p50Ms: 246,
    p99Ms: 280,
    ratioToBaseline: 0.87,
    baselineRequestsPerSecond: 4.72,
  },
  {
    label: 'GraphQL transactions, first page of 10,000 rows (1 conn)',
    requestsPerSecond: 3.8,
    p50Ms: 249,
    p99Ms: 323,
    ratioToBaseline: null,
  },
];

/** Each bar: its width. */
const barWidths = (svg: string) =>
  [...svg.matchAll(/<rect x="[0-9.]+" y="[0-9.]+" width="([0-9.]+)"/g)].map((m) => Number(m[1]));

/** Each <text>: where it is anchored, how, and what it says. */
function texts(svg: string) {
  return [...svg.matchAll(/<text x="([0-9.]+)"[^>]*?(text-anchor="end")?[^>]*>([^<]*)<\/text>/g)].map((match) => ({
    x: Number(match[1]),
    anchoredAtEnd: Boolean(match[2]),
    text: match[3]!.replace(/&amp;/g, '&'),
  }));
}

describe('the bench chart', () => {
  const svg = renderChart(rows, 'title', 'subtitle', 'a note about pgbench that is fairly long, as the real one is');
  const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg)![1]);

  it('leaves room for every label left of its bar, however long (12 px text, at most 7 px a glyph)', () => {
    for (const label of texts(svg).filter((text) => text.anchoredAtEnd)) {
      expect(label.x - label.text.length * 7).toBeGreaterThanOrEqual(0);
    }
  });

  it('keeps every value, note and footer inside the picture', () => {
    for (const text of texts(svg).filter((text) => !text.anchoredAtEnd)) {
      expect(text.x + text.text.length * 6.96).toBeLessThanOrEqual(width);
    }
  });

  it('shows a ratio and a baseline mark only for a scenario that has a baseline', () => {
    const values = texts(svg).filter((text) => /\/s {2}p50/.test(text.text));
    expect(values.map((value) => value.text.includes('×'))).toEqual([false, true, false, true, false]);
    expect(svg.match(/stroke-dasharray/g)).toHaveLength(2);
  });

  it("draws each baseline's group on its own scale, so a few lists a second are as legible as hundreds of lookups", () => {
    // Each baseline is its group's fastest bar and fills the bar area; the doors below it keep their ratio.
    const [bareLookup, restLookup, bareList, restList, graphqlPage] = barWidths(svg);
    expect(bareLookup).toBeCloseTo(440, 0);
    expect(bareList).toBeCloseTo(440, 0);
    expect(restLookup! / bareLookup!).toBeCloseTo(449.7 / 844.7, 2);
    expect(restList! / bareList!).toBeCloseTo(4.1 / 4.72, 2);
    expect(graphqlPage).toBeGreaterThan(300);
    // A value is written past its bar and past its baseline's mark, never across the mark.
    const marks = [...svg.matchAll(/<line x1="([0-9.]+)"[^>]*stroke-dasharray/g)].map((m) => Number(m[1]));
    const valueXs = texts(svg)
      .filter((text) => /\/s {2}p50/.test(text.text) && text.text.includes('×'))
      .map((text) => text.x);
    expect(valueXs.map((x, i) => x > marks[i]!)).toEqual([true, true]);
    // One line between the two groups (the page has no baseline and stays in the list's group).
    expect(svg.match(/stroke="#cccccc"/g)).toHaveLength(1);
  });

  it('writes slow rates with the places that tell them apart', () => {
    const values = texts(svg)
      .filter((text) => /\/s {2}p50/.test(text.text))
      .map((value) => value.text.split('/s')[0]);
    expect(values).toEqual(['845', '450', '4.7', '4.1', '3.8']);
  });
});
