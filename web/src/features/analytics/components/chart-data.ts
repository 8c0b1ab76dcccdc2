// The analytics charts' data, shaped for uPlot (chart.tsx draws it): pure functions, no uPlot and no
// DOM, so tests/web/analytics-chart-data.test.ts runs them in Node. The periods are categories
// along x (0, 1, 2 … at the centre of their columns), the series' values on y.

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

/** uPlot's aligned data: the x of each period (its index), then one array of values per series. */
export type AlignedData = [number[], ...Array<Array<number | null>>];

/** The data uPlot draws: x is the period's index; a missing value stays null (a gap in a line, no bar). */
export function alignedData(series: ChartSeries[], points: ChartPoint[]): AlignedData {
  return [points.map((_, index) => index), ...series.map((_, s) => points.map((point) => point.values[s] ?? null))];
}

/** The top of the y scale: `max` when given (100 for percentages), else the largest value rounded up to 1, 2 or 5 × 10ⁿ. */
export function scaleTop(points: ChartPoint[], max?: number): number {
  if (max !== undefined) return max;
  const top = Math.max(1, ...points.flatMap((point) => point.values.map((value) => value ?? 0)));
  const power = 10 ** Math.floor(Math.log10(top));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= top)!;
}

/** The y axis' steps uPlot may choose from: whole numbers (counts), and 25s (percentages). */
export const Y_STEPS = [1, 2, 5].flatMap((step) => [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000].map((power) => step * power)).concat(25, 250).sort((a, b) => a - b);

/** The narrowest a period's column gets: more periods than fit the screen scroll sideways (a phone). */
export const MIN_COLUMN_PX = 48;
/** The y axis' width, left of the plot. */
export const AXIS_PX = 48;

/** The chart's width: its container's, or wider when the periods would be narrower than `MIN_COLUMN_PX`. */
export function chartWidth(containerPx: number, periods: number): number {
  return Math.max(Math.floor(containerPx), AXIS_PX + periods * MIN_COLUMN_PX);
}

/** The x scale: each period a column of width 1 centred on its index. */
export const xRange = (periods: number): [number, number] => [-0.5, periods - 0.5];

/** The period under a point of the plot, `fraction` of its width from the left (the nearest, at the edges). */
export function periodAt(periods: number, fraction: number): number {
  return Math.min(periods - 1, Math.max(0, Math.floor(fraction * periods)));
}

/** How much of a period's column its bars take together, and the widest a bar is drawn. */
const GROUP_SHARE = 0.8;
const MAX_BAR_PX = 24;

export interface BarLayout {
  periods: number;
  seriesCount: number;
  /** A bar's width as a fraction of the plot's width. */
  bar: number;
}

/** Bars side by side in each period's column, centred, each at most `MAX_BAR_PX` wide. */
export function barLayout(periods: number, seriesCount: number, plotPx: number): BarLayout {
  const column = 1 / periods;
  const bar = Math.min((column * GROUP_SHARE) / seriesCount, plotPx > 0 ? MAX_BAR_PX / plotPx : Infinity);
  return { periods, seriesCount, bar };
}

/** Where bar `s` of period `index` starts, as a fraction of the plot's width. */
export function barLeft(layout: BarLayout, index: number, s: number): number {
  const centre = (index + 0.5) / layout.periods;
  return centre - (layout.bar * layout.seriesCount) / 2 + s * layout.bar;
}

/**
 * The bar under a point of the plot (`fraction` of its width from the left): the period's column,
 * and the series whose bar is there; a little beside the bars (`slack`, a fraction of the plot's
 * width) still counts, for a finger. Null between the columns' bars.
 */
export function barAt(layout: BarLayout, fraction: number, slack = 0): { index: number; series: number } | null {
  const index = periodAt(layout.periods, fraction);
  const left = barLeft(layout, index, 0);
  const right = left + layout.bar * layout.seriesCount;
  if (fraction < left - slack || fraction > right + slack) return null;
  const series = Math.min(layout.seriesCount - 1, Math.max(0, Math.floor((fraction - left) / layout.bar)));
  return { index, series };
}

export interface ChartTarget {
  /** The list the value counts, when there is one. */
  href: string | undefined;
  /** What the chart says of it while the pointer is on it. */
  text: string;
}

/** What is under the pointer: a period's point of a line, or one bar of a period. Null where there is no value. */
export function targetOf(
  series: ChartSeries[],
  points: ChartPoint[],
  at: { index: number; series: number } | null,
  format: (value: number) => string,
): ChartTarget | null {
  if (!at) return null;
  const point = points[at.index];
  const value = point?.values[at.series];
  if (value === null || value === undefined) return null;
  const text = series.length > 1 ? `${point.title} — ${series[at.series].name}: ${format(value)}` : point.title;
  return { href: point.hrefs[at.series], text };
}
