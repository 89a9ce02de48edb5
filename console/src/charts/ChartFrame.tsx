// What every chart of the console is drawn in: an SVG that scales with its width, named by its title
// and described by its summary for a screen reader (the numbers themselves are in the table beside it).
import { type ReactNode, useId } from 'react';

export function ChartFrame(props: {
  width: number;
  height: number;
  title: string;
  summary: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${props.width} ${props.height}`}
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-summary`}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={`${id}-title`}>{props.title}</title>
      <desc id={`${id}-summary`}>{props.summary}</desc>
      {props.children}
    </svg>
  );
}
