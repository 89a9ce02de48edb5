// The bench's chart, written by hand as SVG: one horizontal bar of requests per second per scenario,
// the baselines' bars in their own colour; a scenario with a baseline of its own (each REST door, and
// the GraphQL lookup, against the bare code of its door) has a dashed mark at that baseline's rate
// across its bar and its ratio to it; one without (GraphQL's transaction pages) has neither. Every
// column is as wide as its longest text, so no label is clipped.

export interface ChartRow {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests per second / its baseline's; null: no baseline (nor for a baseline itself). */
  ratioToBaseline: number | null;
  /** Its baseline's requests per second, marked across its bar; null: none. */
  baselineRequestsPerSecond?: number | null;
  baseline?: boolean;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A generous width of `text` at 12 px in Helvetica or Arial (their widest common glyphs are ~7 px). */
const textWidth = (text: string, fontSize = 12) => Math.ceil(text.length * fontSize * 0.58);

const valueText = (row: ChartRow) =>
  `${Math.round(row.requestsPerSecond).toLocaleString('en-US')}/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms${row.ratioToBaseline === null ? '' : `  ×${row.ratioToBaseline.toFixed(2)}`}`;

const FOOTER =
  'requests per second (bars, grey: the bare baselines); ×ratio = requests per second / its baseline’s (dashed mark) in the same run';

export function renderChart(rows: readonly ChartRow[], title: string, subtitle: string, note?: string): string {
  const labelWidth = Math.max(160, ...rows.map((row) => textWidth(row.label))) + 16;
  const barArea = 440;
  const valueWidth = Math.max(...rows.map((row) => textWidth(valueText(row)))) + 16;
  const rowHeight = 28;
  const top = 62;
  const width = Math.max(
    labelWidth + barArea + valueWidth + 20,
    textWidth(title, 15) + 20,
    ...[subtitle, note ?? '', FOOTER].map((text) => textWidth(text) + 20),
  );
  const height = top + rows.length * rowHeight + (note ? 58 : 40);
  const max = Math.max(1, ...rows.map((row) => row.requestsPerSecond));
  const scale = (value: number) => (value / max) * barArea;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="10" y="42" fill="#555555">${escapeXml(subtitle)}</text>`,
  ];
  rows.forEach((row, index) => {
    const y = top + index * rowHeight;
    const barWidth = Math.max(1, scale(row.requestsPerSecond));
    const fill = row.baseline ? '#888888' : row.label.startsWith('GraphQL') ? '#7b5ea7' : '#2f6fb0';
    parts.push(
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeXml(row.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 3}" width="${barWidth.toFixed(1)}" height="${rowHeight - 8}" fill="${fill}"/>`,
      `<text x="${(labelWidth + barWidth + 6).toFixed(1)}" y="${y + 15}">${escapeXml(valueText(row))}</text>`,
    );
    if (row.baselineRequestsPerSecond) {
      const x = (labelWidth + scale(row.baselineRequestsPerSecond)).toFixed(1);
      parts.push(
        `<line x1="${x}" y1="${y + 1}" x2="${x}" y2="${y + rowHeight - 3}" stroke="#444444" stroke-width="1.5" stroke-dasharray="3 2"/>`,
      );
    }
  });
  if (note) parts.push(`<text x="10" y="${height - 32}" fill="#555555">${escapeXml(note)}</text>`);
  parts.push(`<text x="10" y="${height - 14}" fill="#555555">${escapeXml(FOOTER)}</text>`, '</svg>', '');
  return parts.join('\n');
}
