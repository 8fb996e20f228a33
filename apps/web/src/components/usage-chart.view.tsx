import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const HEIGHT = 320;
/** Told apart by hue and, for the colour-blind and in print, by dash pattern. */
const COLORS = ['#2457c5', '#c2410c', '#15803d', '#7c3aed', '#b91c1c', '#0e7490', '#a16207', '#be185d', '#4d7c0f', '#475569'];
const DASHES: ReadonlyArray<number[]> = [[], [6, 4], [2, 3], [10, 3, 2, 3]];

export interface ChartLine {
  readonly label: string;
  readonly values: readonly number[];
}

/**
 * Tokens per bucket as lines, one per agent and model (uPlot: small, canvas, fits the page's width).
 * The canvas is an image to assistive technology; the table under it has the same numbers.
 */
export function UsageChart(props: { readonly bucketStarts: readonly Date[]; readonly lines: readonly ChartLine[]; readonly description: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const data: uPlot.AlignedData = [props.bucketStarts.map((start) => start.getTime() / 1000), ...props.lines.map((line) => [...line.values])];
    const chart = new uPlot(
      {
        width: Math.max(240, element.clientWidth),
        height: HEIGHT,
        scales: { x: { time: true }, y: { range: (_chart, _minimum, maximum) => [0, Math.max(10, maximum * 1.1)] } },
        axes: [{}, { size: 64, values: (_chart, splits) => splits.map(compactNumber) }],
        series: [
          {},
          ...props.lines.map((line, index) => ({
            label: line.label,
            stroke: COLORS[index % COLORS.length],
            dash: DASHES[Math.floor(index / COLORS.length) % DASHES.length],
            width: 2,
            points: { show: true, size: 6 },
            value: (_chart: uPlot, value: number | null) => (value === null ? '–' : value.toLocaleString()),
          })),
        ],
        legend: { live: true },
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(240, element.clientWidth), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props.bucketStarts, props.lines]);
  return <div className="usage-chart" ref={container} role="img" aria-label={props.description} data-testid="usage-chart" />;
}

function compactNumber(value: number): string {
  return new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}
