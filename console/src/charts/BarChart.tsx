// Bars, as SVG drawn from the numbers (decisions.md 46): a title, a y axis with a few labels, each
// bar named below and its figure written above it (so no bar is read by its height or colour alone).
// The numbers themselves are in the table the caller puts beside it.
import { ChartFrame } from './ChartFrame.js';
import { roundCeiling, ticksUpTo } from './scale.js';

export interface Bar {
  label: string;
  /** The bar's height, for drawing only. */
  value: number;
  /** The figure written above the bar, as the graph gave it. */
  valueLabel: string;
}

const WIDTH = 720;
const HEIGHT = 280;
const PLOT = { left: 64, right: WIDTH - 16, top: 24, bottom: HEIGHT - 36 };

export function BarChart(props: {
  title: string;
  summary: string;
  bars: readonly Bar[];
  colour: string;
  yTick: (value: number) => string;
}) {
  const { bars } = props;
  const top = roundCeiling(Math.max(0, ...bars.map((bar) => bar.value)));
  const slot = (PLOT.right - PLOT.left) / Math.max(1, bars.length);
  const y = (value: number) => PLOT.bottom - (value / top) * (PLOT.bottom - PLOT.top);
  return (
    <ChartFrame width={WIDTH} height={HEIGHT} title={props.title} summary={props.summary}>
      <g className="axis">
        {ticksUpTo(top).map((tick) => (
          <g key={tick}>
            <line x1={PLOT.left} x2={PLOT.right} y1={y(tick)} y2={y(tick)} stroke="#c9d1d9" strokeWidth={1} />
            <text x={PLOT.left - 6} y={y(tick) + 4} textAnchor="end">
              {props.yTick(tick)}
            </text>
          </g>
        ))}
      </g>
      {bars.map((bar, index) => {
        const centre = PLOT.left + slot * (index + 0.5);
        const width = slot * 0.6;
        const barTop = y(bar.value);
        return (
          <g key={bar.label}>
            <rect
              x={centre - width / 2}
              y={barTop}
              width={width}
              height={Math.max(0, PLOT.bottom - barTop)}
              fill={props.colour}
            />
            <text className="bar-figure" x={centre} y={barTop - 6} textAnchor="middle">
              {bar.valueLabel}
            </text>
            <text x={centre} y={PLOT.bottom + 20} textAnchor="middle">
              {bar.label}
            </text>
          </g>
        );
      })}
      <line x1={PLOT.left} x2={PLOT.right} y1={PLOT.bottom} y2={PLOT.bottom} stroke="#4f5a66" strokeWidth={1} />
    </ChartFrame>
  );
}
