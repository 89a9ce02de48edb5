// The bench's chart (bench/chart.ts): issue 15 asks for it legible, with no clipped label, and a
// ratio only where a scenario has a baseline.
import { describe, expect, it } from 'vitest';
import { type ChartRow, renderChart } from '../bench/chart.js';

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
    label: 'GraphQL transactions, first page of 10,000 rows (1 conn)',
    requestsPerSecond: 3.8,
    p50Ms: 249,
    p99Ms: 323,
    ratioToBaseline: null,
  },
];

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
    expect(values.map((value) => value.text.includes('×'))).toEqual([false, true, false]);
    expect(svg.match(/stroke-dasharray/g)).toHaveLength(1);
  });
});
