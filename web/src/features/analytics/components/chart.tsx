// The analytics page's one chart component (docs/analytics.md, "Charts"). Charts over periods are
// drawn by uPlot (a small, maintained canvas charting library): lines for trends, bars (uPlot's
// bars path builder) for counts. uPlot and its stylesheet are imported here only, so they load with
// the analytics page's chunk and never in another page's first load. Rows (an item, a site: long
// names that must wrap on a phone) stay a list of links, each with a bar of CSS width.
//
// A chart is for the eye and the pointer: it is hidden from assistive technology, because the
// table beside it holds the same figures and the same links, where a keyboard or a screen reader
// reads them well. A click (a tap) on the canvas opens the list of the point or bar under it.
import { useLayoutEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import {
  alignedData,
  AXIS_PX,
  barAt,
  barLayout,
  barLeft,
  type ChartPoint,
  type ChartSeries,
  chartWidth,
  periodAt,
  scaleTop,
  targetOf,
  xRange,
  Y_STEPS,
} from './chart-data';

export type { ChartPoint, ChartSeries, ChartTone } from './chart-data';

export interface ChartProps {
  /** `line`: one series over periods (a trend). `bars`: series side by side per period (counts).
   * `rows`: one horizontal bar per point, for long labels. */
  kind: 'line' | 'bars' | 'rows';
  series: ChartSeries[];
  points: ChartPoint[];
  /** The top of the scale (100 for percentages); the largest value, rounded up, when not given. */
  max?: number;
  format: (value: number) => string;
}

/** The chart of `points`, with a legend when it has more than one series. */
export function Chart(props: ChartProps) {
  return (
    <div className="chart" aria-hidden="true">
      {props.series.length > 1 ? (
        <ul className="chart-legend">
          {props.series.map((series) => (
            <li key={series.name}>
              <span className={`chart-swatch tone-${series.tone}`} />
              {series.name}
            </li>
          ))}
        </ul>
      ) : null}
      {props.points.length === 0 ? null : props.kind === 'rows' ? <RowChart {...props} /> : <PeriodChart {...props} />}
    </div>
  );
}

const HEIGHT = 220;
/** A finger's slack beside a bar, in CSS pixels: a tap a little beside a narrow bar still opens it. */
const TAP_SLACK_PX = 4;

/** A colour the page's stylesheet gives `className` (the tones), read for the canvas. */
function cssColor(host: HTMLElement, className: string): string {
  const probe = document.createElement('span');
  probe.className = className;
  host.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

/** Periods along the bottom: a line, or bars side by side. Wider than the screen, it scrolls sideways. */
function PeriodChart({ kind, series, points, max, format }: ChartProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLParagraphElement>(null);
  const navigate = useNavigate();
  // The parents build their points on every render: the chart is drawn again only when what it
  // shows changes (a new answer, another priority), not when a query's fetching state does.
  const drawn = JSON.stringify([kind, series, points, max]);

  useLayoutEffect(() => {
    const host = scroller.current!;
    const style = getComputedStyle(host);
    const variable = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    const muted = variable('--muted', '#5b6675');
    const text = variable('--text', '#1b2430');
    const surface = variable('--surface', '#ffffff');
    const grid = variable('--border', '#d9dee5');
    const font = `11px ${style.fontFamily}`;
    const colors = series.map((one) => cssColor(host, `tone-${one.tone}`));
    const periods = points.length;
    const top = scaleTop(points, max);
    const plotPx = (chart: uPlot) => chart.bbox.width / uPlot.pxRatio;
    const layoutOf = (chart: uPlot) => barLayout(periods, series.length, plotPx(chart));

    /** The point or bar `x` CSS pixels from the plot's left edge, and what it says and links to. */
    const targetAt = (chart: uPlot, x: number) => {
      const width = plotPx(chart);
      if (x < 0 || x > width) return null;
      const at = kind === 'line' ? { index: periodAt(periods, x / width), series: 0 } : barAt(layoutOf(chart), x / width, TAP_SLACK_PX / width);
      return targetOf(series, points, at, format);
    };

    const seriesOptions: uPlot.Series[] = series.map((one, s) =>
      kind === 'line'
        ? { label: one.name, stroke: colors[s], width: 2.5, points: { show: true, size: 10, width: 2.5, stroke: colors[s], fill: surface } }
        : {
            label: one.name,
            fill: colors[s],
            stroke: colors[s],
            width: 0,
            points: { show: false },
            paths: uPlot.paths.bars!({
              gap: 2,
              disp: {
                // Unit 2: fractions of the plot's width (uPlot's BarsPathBuilderFacetUnit.PixelPercent).
                x0: { unit: 2 as uPlot.Series.BarsPathBuilderFacetUnit, values: (chart) => points.map((_, index) => barLeft(layoutOf(chart), index, s)) },
                size: { unit: 2 as uPlot.Series.BarsPathBuilderFacetUnit, values: (chart) => points.map(() => layoutOf(chart).bar) },
              },
            }),
          },
    );

    const options: uPlot.Options = {
      width: chartWidth(host.clientWidth, periods),
      height: HEIGHT,
      padding: [20, 8, 0, 0],
      legend: { show: false },
      cursor: {
        x: kind === 'line',
        y: false,
        points: { show: kind === 'line' },
        // No zooming by dragging; and uPlot's default swallows a click whose pointer "moved" between
        // press and release (by a fraction of a pixel, or a finger's jitter): every click is a click here.
        drag: { x: false, y: false, setScale: false, click: () => {} },
      },
      select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      scales: { x: { time: false, range: () => xRange(periods) }, y: { range: () => [0, top] } },
      axes: [
        {
          stroke: muted,
          font,
          size: 28,
          gap: 6,
          grid: { show: false },
          ticks: { show: false },
          splits: () => points.map((_, index) => index),
          values: (_chart, splits) => splits.map((index) => points[index]?.label ?? ''),
        },
        {
          stroke: muted,
          font,
          size: AXIS_PX,
          gap: 6,
          space: 30,
          incrs: Y_STEPS,
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          values: (_chart, splits) => splits.map(format),
        },
      ],
      series: [{}, ...seriesOptions],
      hooks: {
        // Wider than the screen, it opens on the latest periods: the reader swipes back in time
        // (once uPlot has sized itself, which it does in a microtask after being made).
        ready: [
          () => {
            host.scrollLeft = host.scrollWidth;
          },
        ],
        // A line's values written over its points, as the tables write them.
        draw: [
          (chart) => {
            if (kind !== 'line') return;
            const context = chart.ctx;
            context.save();
            context.font = `600 ${11 * uPlot.pxRatio}px ${style.fontFamily}`;
            context.fillStyle = text;
            context.textAlign = 'center';
            points.forEach((point, index) => {
              const value = point.values[0];
              if (value === null) return;
              context.fillText(format(value), chart.valToPos(index, 'x', true), chart.valToPos(value, 'y', true) - 10 * uPlot.pxRatio);
            });
            context.restore();
          },
        ],
        // What is under the pointer: said above the chart, and a pointer where there is a link.
        setCursor: [
          (chart) => {
            const left = chart.cursor.left ?? -1;
            const target = left < 0 ? null : targetAt(chart, left);
            if (readout.current) readout.current.textContent = target?.text ?? '\u00a0';
            chart.over.style.cursor = target?.href ? 'pointer' : '';
          },
        ],
      },
    };

    const chart = new uPlot(options, alignedData(series, points) as uPlot.AlignedData, host);
    // A click or a tap opens the list of the point or bar under it (read from the event, so a tap
    // that came without a hover first finds it too).
    const open = (event: MouseEvent) => {
      const box = chart.over.getBoundingClientRect();
      const href = targetAt(chart, event.clientX - box.left)?.href;
      if (href) navigate(href);
    };
    chart.over.addEventListener('click', open);
    const resized = new ResizeObserver(() => {
      const width = chartWidth(host.clientWidth, periods);
      if (width !== chart.width) chart.setSize({ width, height: HEIGHT });
    });
    resized.observe(host);
    return () => {
      resized.disconnect();
      chart.over.removeEventListener('click', open);
      chart.destroy();
    };
    // `drawn` stands for kind, series, points and max (their content, not their identity).
  }, [drawn, format, navigate]);

  return (
    <>
      <p className="chart-readout" ref={readout}>
        {'\u00a0'}
      </p>
      {/* Out of the keyboard's way: Chromium makes a scroll box with nothing focusable in it a tab
          stop, and this one is inside a chart hidden from assistive technology (a stop with no
          name); the table beside it says the same, and a finger or a wheel still swipes it. */}
      <div className="chart-scroll" ref={scroller} tabIndex={-1} />
    </>
  );
}

/** One bar per row, its label above it: long item and site names fit a phone. */
function RowChart({ series, points, max, format }: ChartProps) {
  const top = scaleTop(points, max);
  return (
    <ol className="chart-rows">
      {points.map((point) => {
        const value = point.values[0];
        const share = value === null ? 0 : Math.max(0, Math.min(1, value / top));
        const bar = (
          <>
            <span className="chart-row-label">{point.label}</span>
            <span className="chart-row-track">
              <span className={`chart-row-bar tone-${series[0]?.tone ?? 'accent'}`} style={{ width: `${share * 100}%` }} />
              <span className="chart-row-value">{value === null ? '–' : format(value)}</span>
            </span>
          </>
        );
        return (
          <li key={point.key} title={point.title}>
            {point.hrefs[0] ? (
              <Link to={point.hrefs[0]} tabIndex={-1} className="chart-row">
                {bar}
              </Link>
            ) : (
              <span className="chart-row">{bar}</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
