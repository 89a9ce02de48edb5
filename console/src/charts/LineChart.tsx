// Lines over a run of days, as SVG drawn from the numbers (decisions.md 46): a title, axes with a few
// labels, and a legend telling the lines apart by dash pattern and colour, never colour alone. The
// numbers themselves are in the table the caller puts beside it; a screen reader reads that.
import { ChartFrame } from './ChartFrame.js';
import { labelledIndexes, roundCeiling, ticksUpTo } from './scale.js';

export interface LineSeries {
  label: string;
  /** One value per x label; null leaves a gap. */
  values: ReadonlyArray<number | null>;
  colour: string;
  /** An SVG stroke-dasharray; null draws a solid line. */
  dash: string | null;
}

const WIDTH = 720;
const HEIGHT = 300;
const PLOT = { left: 52, right: WIDTH - 16, top: 44, bottom: HEIGHT - 32 };

/** The path of one series, broken where a value is missing. */
function pathOf(values: ReadonlyArray<number | null>, x: (index: number) => number, y: (value: number) => number) {
  let path = '';
  let drawing = false;
  values.forEach((value, index) => {
    if (value === null) {
      drawing = false;
      return;
    }
    path += `${drawing ? 'L' : 'M'}${x(index).toFixed(1)} ${y(value).toFixed(1)} `;
    drawing = true;
  });
  return path.trim();
}

export function LineChart(props: {
  title: string;
  /** A sentence of what the lines show now, read with the title. */
  summary: string;
  xLabels: readonly string[];
  series: readonly LineSeries[];
  /** A tick's label on the y axis. */
  yTick: (value: number) => string;
}) {
  const { xLabels, series } = props;
  const top = roundCeiling(Math.max(0, ...series.flatMap((line) => line.values.filter((v) => v !== null))));
  const span = Math.max(1, xLabels.length - 1);
  const x = (index: number) =>
    xLabels.length === 1 ? (PLOT.left + PLOT.right) / 2 : PLOT.left + (index * (PLOT.right - PLOT.left)) / span;
  const y = (value: number) => PLOT.bottom - (value / top) * (PLOT.bottom - PLOT.top);
  return (
    <ChartFrame width={WIDTH} height={HEIGHT} title={props.title} summary={props.summary}>
      <g className="legend">
        {series.map((line, index) => (
          <g key={line.label} transform={`translate(${PLOT.left + index * 160} 14)`}>
            <line
              x1={0}
              x2={36}
              y1={0}
              y2={0}
              stroke={line.colour}
              strokeWidth={3}
              strokeDasharray={line.dash ?? undefined}
            />
            <text x={44} y={4}>
              {line.label}
            </text>
          </g>
        ))}
      </g>
      <g className="axis">
        {ticksUpTo(top).map((tick) => (
          <g key={tick}>
            <line x1={PLOT.left} x2={PLOT.right} y1={y(tick)} y2={y(tick)} stroke="#c9d1d9" strokeWidth={1} />
            <text x={PLOT.left - 6} y={y(tick) + 4} textAnchor="end">
              {props.yTick(tick)}
            </text>
          </g>
        ))}
        {labelledIndexes(xLabels.length).map((index) => (
          <text
            key={index}
            x={x(index)}
            y={PLOT.bottom + 20}
            textAnchor={index === 0 ? 'start' : index === xLabels.length - 1 ? 'end' : 'middle'}
          >
            {xLabels[index]}
          </text>
        ))}
        <line x1={PLOT.left} x2={PLOT.left} y1={PLOT.top} y2={PLOT.bottom} stroke="#4f5a66" strokeWidth={1} />
        <line x1={PLOT.left} x2={PLOT.right} y1={PLOT.bottom} y2={PLOT.bottom} stroke="#4f5a66" strokeWidth={1} />
      </g>
      {series.map((line) => (
        <path
          key={line.label}
          d={pathOf(line.values, x, y)}
          fill="none"
          stroke={line.colour}
          strokeWidth={2}
          strokeDasharray={line.dash ?? undefined}
          strokeLinejoin="round"
        />
      ))}
    </ChartFrame>
  );
}
