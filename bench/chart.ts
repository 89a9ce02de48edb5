// The bench's chart, written by hand as SVG: one horizontal bar of requests per second per scenario,
// the baselines' bars in their own colour. The scenarios come in groups, each a bare baseline and the
// doors measured against it (a group begins at each baseline), and each group's bars share a scale of
// their own: the group's fastest bar fills the bar area. One scale for all would draw the lookups at
// hundreds a second and the 10,000-row lists at a few as a pixel or two, their difference invisible.
// A scenario with a baseline of its own has a dashed mark at that baseline's rate across its bar and
// its ratio to it; one without (GraphQL's transaction pages) has neither. Every column is as wide as
// its longest text, so no label is clipped.

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

/** A rate with the places that tell two slow doors apart: 2.6/s and 3.0/s, not 3/s and 3/s. */
const rateText = (perSecond: number) =>
  perSecond >= 100 ? Math.round(perSecond).toLocaleString('en-US') : perSecond.toFixed(1);

const valueText = (row: ChartRow) =>
  `${rateText(row.requestsPerSecond)}/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms${row.ratioToBaseline === null ? '' : `  ×${row.ratioToBaseline.toFixed(2)}`}`;

const FOOTER_LINES = [
  'requests per second (bars, grey: the bare baselines); ×ratio = requests per second / its baseline’s (dashed mark) in the same run;',
  'each group (a baseline and the doors below it, up to the next line) has its own scale, its fastest bar full width',
];

/** The rows in groups: each baseline begins one, and the rows before the first baseline form their own. */
function groupsOf(rows: readonly ChartRow[]): ChartRow[][] {
  const groups: ChartRow[][] = [];
  for (const row of rows) {
    if (row.baseline || groups.length === 0) groups.push([]);
    groups.at(-1)!.push(row);
  }
  return groups;
}

/** `notes`: lines under the bars (a run's floor and webhooks, one per data scale), above the footer. */
export function renderChart(
  rows: readonly ChartRow[],
  title: string,
  subtitle: string,
  notes?: string | readonly string[],
): string {
  const labelWidth = Math.max(160, ...rows.map((row) => textWidth(row.label))) + 16;
  const barArea = 440;
  const valueWidth = Math.max(...rows.map((row) => textWidth(valueText(row)))) + 16;
  const rowHeight = 28;
  const groupGap = 10;
  const top = 62;
  const groups = groupsOf(rows);
  const footer = [...(notes === undefined ? [] : typeof notes === 'string' ? [notes] : notes), ...FOOTER_LINES];
  const width = Math.max(
    labelWidth + barArea + valueWidth + 20,
    textWidth(title, 15) + 20,
    ...[subtitle, ...footer].map((text) => textWidth(text) + 20),
  );
  const height = top + rows.length * rowHeight + (groups.length - 1) * groupGap + 18 * footer.length + 22;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="10" y="42" fill="#555555">${escapeXml(subtitle)}</text>`,
  ];
  let y = top;
  groups.forEach((group, index) => {
    if (index > 0) {
      const lineY = y + groupGap / 2 - 2;
      parts.push(`<line x1="10" y1="${lineY}" x2="${width - 10}" y2="${lineY}" stroke="#cccccc" stroke-width="1"/>`);
      y += groupGap;
    }
    const max = Math.max(
      1e-9,
      ...group.map((row) => Math.max(row.requestsPerSecond, row.baselineRequestsPerSecond ?? 0)),
    );
    const scale = (value: number) => (value / max) * barArea;
    for (const row of group) {
      const barWidth = Math.max(1, scale(row.requestsPerSecond));
      // The value starts past the bar and past its baseline's mark, which would otherwise cross it.
      const valueX =
        labelWidth + Math.max(barWidth, row.baselineRequestsPerSecond ? scale(row.baselineRequestsPerSecond) : 0) + 6;
      const fill = row.baseline ? '#888888' : row.label.startsWith('GraphQL') ? '#7b5ea7' : '#2f6fb0';
      parts.push(
        `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeXml(row.label)}</text>`,
        `<rect x="${labelWidth}" y="${y + 3}" width="${barWidth.toFixed(1)}" height="${rowHeight - 8}" fill="${fill}"/>`,
        `<text x="${valueX.toFixed(1)}" y="${y + 15}">${escapeXml(valueText(row))}</text>`,
      );
      if (row.baselineRequestsPerSecond) {
        const x = (labelWidth + scale(row.baselineRequestsPerSecond)).toFixed(1);
        parts.push(
          `<line x1="${x}" y1="${y + 1}" x2="${x}" y2="${y + rowHeight - 3}" stroke="#444444" stroke-width="1.5" stroke-dasharray="3 2"/>`,
        );
      }
      y += rowHeight;
    }
  });
  footer.forEach((line, index) => {
    parts.push(`<text x="10" y="${y + 22 + index * 18}" fill="#555555">${escapeXml(line)}</text>`);
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}
