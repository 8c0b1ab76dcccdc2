// The analytics page's one chart component (docs/analytics.md, "Screens"). Plain SVG, drawn from
// data: points with values and, for each value, the list it counts. Hand-written because no
// charting library is installed yet (uPlot is the one asked for); every chart on the page goes
// through these props, so a library can draw behind them without the measures changing.
//
// A chart is for the eye and the pointer: it is hidden from assistive technology and its links are
// out of the tab order, because the table beside it holds the same figures and the same links,
// where a keyboard or a screen reader reads them well (a bar's value is not something to tab to).
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router-dom';

export type ChartTone = 'accent' | 'pass' | 'warn' | 'fail' | 'muted' | 'info';

export interface ChartSeries {
  name: string;
  tone: ChartTone;
}

export interface ChartPoint {
  key: string;
  /** Under the point or bar (a period's short name), or beside a row (an item, a site). */
  label: string;
  /** One value per series; null where there is nothing to show (no inspection scored). */
  values: Array<number | null>;
  /** One link per series: the list of the rows the value counts. */
  hrefs: Array<string | undefined>;
  /** Said on hover, e.g. "Week of 2 Nov 2026: 86.4% of 12 inspections". */
  title: string;
}

export interface ChartProps {
  /** `line`: one series over periods. `bars`: series side by side per period. `stacked`: series on
   * top of each other per period. `rows`: one horizontal bar per point, for long labels. */
  kind: 'line' | 'bars' | 'stacked' | 'rows';
  series: ChartSeries[];
  points: ChartPoint[];
  /** The top of the scale (100 for percentages); the largest value (or total) when not given. */
  max?: number;
  format: (value: number) => string;
}

const SLOT = 56;
const HEIGHT = 180;
const TOP = 18;
const AXIS = 40;
const LABELS = 28;

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

function scaleTop(props: ChartProps): number {
  if (props.max !== undefined) return props.max;
  const tops = props.points.map((point) =>
    props.kind === 'stacked' ? point.values.reduce<number>((sum, value) => sum + (value ?? 0), 0) : Math.max(0, ...point.values.map((value) => value ?? 0)),
  );
  const top = Math.max(1, ...tops);
  // A round top: 1, 2, 5 × 10ⁿ.
  const power = 10 ** Math.floor(Math.log10(top));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= top)!;
}

/** A link inside the drawing: followed by pointer, never focused (the table's link is). */
function Target({ href, title, children }: { href: string | undefined; title: string; children: ReactNode }) {
  if (!href) {
    return (
      <g>
        <title>{title}</title>
        {children}
      </g>
    );
  }
  return (
    <Link to={href} tabIndex={-1} className="chart-link">
      <title>{title}</title>
      {children}
    </Link>
  );
}

/** Periods along the bottom: a line, bars side by side, or stacked bars. Wider than a phone: it scrolls sideways. */
function PeriodChart({ kind, series, points, format, ...rest }: ChartProps) {
  const top = scaleTop({ kind, series, points, format, ...rest });
  const width = AXIS + points.length * SLOT;
  const y = (value: number) => TOP + HEIGHT - (Math.min(value, top) / top) * HEIGHT;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => share * top);
  const centre = (index: number) => AXIS + index * SLOT + SLOT / 2;
  // Wider than the screen, it opens on the latest periods: the reader swipes back in time.
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (scroller.current) scroller.current.scrollLeft = scroller.current.scrollWidth;
  }, [points.length]);
  return (
    <div className="chart-scroll" ref={scroller}>
      <svg width={width} height={TOP + HEIGHT + LABELS} className="chart-svg" focusable="false">
        {ticks.map((tick) => (
          <g key={tick} className="chart-grid">
            <line x1={AXIS} x2={width} y1={y(tick)} y2={y(tick)} />
            <text x={AXIS - 6} y={y(tick) + 4} textAnchor="end">
              {format(tick)}
            </text>
          </g>
        ))}
        {points.map((point, index) => (
          <text key={point.key} className="chart-label" x={centre(index)} y={TOP + HEIGHT + 18} textAnchor="middle">
            {point.label}
          </text>
        ))}
        {kind === 'line' ? <Line points={points} x={centre} y={y} format={format} tone={series[0]?.tone ?? 'accent'} /> : null}
        {kind === 'bars' ? (
          points.map((point, index) => {
            const barWidth = Math.min(18, (SLOT - 12) / series.length);
            const left = centre(index) - (barWidth * series.length) / 2;
            return point.values.map((value, s) =>
              value === null ? null : (
                <Target key={`${point.key}-${s}`} href={point.hrefs[s]} title={`${point.title} — ${series[s].name}: ${format(value)}`}>
                  <rect className={`chart-bar tone-${series[s].tone}`} x={left + s * barWidth} y={y(value)} width={barWidth - 2} height={Math.max(0, y(0) - y(value))} />
                </Target>
              ),
            );
          })
        ) : null}
        {kind === 'stacked' ? (
          points.map((point, index) => {
            let base = 0;
            return point.values.map((value, s) => {
              if (!value) return null;
              const from = base;
              base += value;
              return (
                <Target key={`${point.key}-${s}`} href={point.hrefs[s]} title={`${point.title} — ${series[s].name}: ${format(value)}`}>
                  <rect className={`chart-bar tone-${series[s].tone}`} x={centre(index) - 14} y={y(base)} width={28} height={Math.max(0, y(from) - y(base))} />
                </Target>
              );
            });
          })
        ) : null}
      </svg>
    </div>
  );
}

function Line({ points, x, y, format, tone }: { points: ChartPoint[]; x: (index: number) => number; y: (value: number) => number; format: (value: number) => string; tone: ChartTone }) {
  // A gap where a period has no value: the line does not pretend to know it.
  const runs: Array<Array<[number, number]>> = [];
  let run: Array<[number, number]> = [];
  points.forEach((point, index) => {
    const value = point.values[0];
    if (value === null) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push([x(index), y(value)]);
  });
  if (run.length) runs.push(run);
  return (
    <g className={`chart-line tone-${tone}`}>
      {runs.map((coordinates) => (
        <polyline key={coordinates[0].join()} points={coordinates.map((pair) => pair.join(',')).join(' ')} />
      ))}
      {points.map((point, index) => {
        const value = point.values[0];
        if (value === null) return null;
        return (
          <Target key={point.key} href={point.hrefs[0]} title={point.title}>
            <circle cx={x(index)} cy={y(value)} r={6} />
            <text x={x(index)} y={y(value) - 10} textAnchor="middle" className="chart-value">
              {format(value)}
            </text>
          </Target>
        );
      })}
    </g>
  );
}

/** One bar per row, its label above it: long item and site names fit a phone. */
function RowChart({ series, points, format, ...rest }: ChartProps) {
  const top = scaleTop({ series, points, format, ...rest });
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
