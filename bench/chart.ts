// The bench's chart, written by hand as SVG: one horizontal bar of requests per second per scenario,
// the baseline's bar in its own colour and a dashed line at the baseline's rate, each bar labelled
// with its rate, p50/p99 and ratio to the baseline.

export interface ChartRow {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ratioToBaseline: number;
  baseline?: boolean;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderChart(rows: readonly ChartRow[], title: string, subtitle: string): string {
  const labelWidth = 300;
  const barArea = 440;
  const valueWidth = 250;
  const rowHeight = 28;
  const top = 62;
  const width = labelWidth + barArea + valueWidth + 20;
  const height = top + rows.length * rowHeight + 40;
  const max = Math.max(1, ...rows.map((row) => row.requestsPerSecond));
  const scale = (value: number) => (value / max) * barArea;
  const baseline = rows.find((row) => row.baseline);
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
      `<text x="${(labelWidth + barWidth + 6).toFixed(1)}" y="${y + 15}">${escapeXml(
        `${Math.round(row.requestsPerSecond).toLocaleString('en-US')}/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms${row.baseline ? '' : `  ×${row.ratioToBaseline.toFixed(2)}`}`,
      )}</text>`,
    );
  });
  if (baseline) {
    const x = (labelWidth + scale(baseline.requestsPerSecond)).toFixed(1);
    parts.push(
      `<line x1="${x}" y1="${top - 4}" x2="${x}" y2="${top + rows.length * rowHeight}" stroke="#888888" stroke-dasharray="4 3"/>`,
    );
  }
  parts.push(
    `<text x="10" y="${height - 14}" fill="#555555">${escapeXml('requests per second (bars); ×ratio = requests per second / baseline requests per second in the same run')}</text>`,
    '</svg>',
    '',
  );
  return parts.join('\n');
}
