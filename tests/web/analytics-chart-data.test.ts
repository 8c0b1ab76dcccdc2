// The analytics charts' data as uPlot takes it (issue 28 part 4; docs/analytics.md "Charts"): the
// series from the sections' points, the scale, the width that makes a phone swipe, and what a click
// at a place of the plot opens — the point of a line, or the one bar of a period under it.
import { describe, expect, it } from 'vitest';
import {
  alignedData,
  AXIS_PX,
  barAt,
  barLayout,
  barLeft,
  type ChartPoint,
  type ChartSeries,
  chartWidth,
  MIN_COLUMN_PX,
  periodAt,
  scaleTop,
  targetOf,
  xRange,
} from '../../web/src/features/analytics/components/chart-data';

const count = (value: number) => value.toLocaleString('en-GB');

/** A period's point: one value and one link per series. */
function point(start: string, values: Array<number | null>): ChartPoint {
  return {
    key: start,
    label: start.slice(5),
    values,
    hrefs: values.map((_, s) => `/o/harbor-foods/actions?figure=${s}&day=${start}`),
    title: `Week of ${start}`,
  };
}

const FIGURES: ChartSeries[] = [
  { name: 'Opened', tone: 'info' },
  { name: 'Resolved', tone: 'accent' },
  { name: 'Verified', tone: 'pass' },
  { name: 'Overdue', tone: 'fail' },
];

describe('the series uPlot draws, from the rows', () => {
  it('has the periods as x (their order) and one array per series, a missing value left null (a gap, no bar)', () => {
    const scores = [point('2026-11-02', [86.4]), point('2026-11-09', [null]), point('2026-11-16', [91])];
    expect(alignedData([{ name: 'Average score', tone: 'accent' }], scores)).toEqual([
      [0, 1, 2],
      [86.4, null, 91],
    ]);
    const actions = [point('2026-11-02', [3, 1, 0, 2]), point('2026-11-09', [0, 4, 1, 0])];
    expect(alignedData(FIGURES, actions)).toEqual([
      [0, 1],
      [3, 0],
      [1, 4],
      [0, 1],
      [2, 0],
    ]);
  });

  it('has no periods when the answer has none', () => {
    expect(alignedData(FIGURES, [])).toEqual([[], [], [], [], []]);
  });

  it('scales percentages to 100, and counts to their largest rounded up to 1, 2 or 5 × 10ⁿ', () => {
    expect(scaleTop([point('a', [12])], 100)).toBe(100);
    expect(scaleTop([point('a', [3, 7]), point('b', [1, null])])).toBe(10);
    expect(scaleTop([point('a', [11])])).toBe(20);
    expect(scaleTop([point('a', [200])])).toBe(200);
    expect(scaleTop([point('a', [201])])).toBe(500);
    // Nothing but zeros and gaps: a scale of 1, not of 0.
    expect(scaleTop([point('a', [0, null])])).toBe(1);
  });

  it('centres each period in a column of width 1', () => {
    expect(xRange(12)).toEqual([-0.5, 11.5]);
    expect(xRange(1)).toEqual([-0.5, 0.5]);
  });
});

describe('the width: the container’s, or wider so that a phone swipes', () => {
  it('is the container’s when the periods fit, and a column per period beside the axis when they do not', () => {
    // 1280 px: a panel's chart of 12 weeks fits.
    expect(chartWidth(700, 12)).toBe(700);
    // 390 px: 12 weeks are wider than the panel.
    expect(chartWidth(330, 12)).toBe(AXIS_PX + 12 * MIN_COLUMN_PX);
    expect(chartWidth(330, 12)).toBeGreaterThan(330);
    // Three months fit a phone.
    expect(chartWidth(330.6, 3)).toBe(330);
  });
});

describe('what a click on the plot opens', () => {
  it('on a line: the period under the pointer, the nearest at the edges', () => {
    expect(periodAt(12, 0)).toBe(0);
    expect(periodAt(12, 0.5 / 12)).toBe(0);
    expect(periodAt(12, 11.9 / 12)).toBe(11);
    expect(periodAt(12, 1)).toBe(11);
    expect(periodAt(12, -0.01)).toBe(0);
    expect(periodAt(3, 0.4)).toBe(1);
  });

  it('on bars: the bar under the pointer, of its period and series; nothing between periods', () => {
    const layout = barLayout(4, 4, 800);
    // 4 periods of 200 px; 4 bars of at most 24 px, centred in each: 96 px from 52 px into the column.
    expect(layout.bar * 800).toBeCloseTo(24);
    expect(barLeft(layout, 0, 0) * 800).toBeCloseTo(52);
    expect(barLeft(layout, 2, 3) * 800).toBeCloseTo(400 + 52 + 72);
    expect(barAt(layout, 60 / 800)).toEqual({ index: 0, series: 0 });
    expect(barAt(layout, (200 + 52 + 24 + 1) / 800)).toEqual({ index: 1, series: 1 });
    expect(barAt(layout, (600 + 52 + 95) / 800)).toEqual({ index: 3, series: 3 });
    expect(barAt(layout, 10 / 800)).toBeNull();
    expect(barAt(layout, 199 / 800)).toBeNull();
    // A finger a little beside the first bar still opens it.
    expect(barAt(layout, 50 / 800, 4 / 800)).toEqual({ index: 0, series: 0 });
  });

  it('on bars of a narrow plot: the bars share 80 % of their column', () => {
    const layout = barLayout(12, 4, 576);
    expect(layout.bar * 576).toBeCloseTo((48 * 0.8) / 4);
    expect(barAt(layout, (11 * 48 + 25) / 576)).toEqual({ index: 11, series: 2 });
  });

  it('is the list of the value under it, said with its series; nothing where there is no value', () => {
    const points = [point('2026-11-02', [3, 1, 0, 2]), point('2026-11-09', [null, 4, 1, 0])];
    expect(targetOf(FIGURES, points, { index: 0, series: 3 }, count)).toEqual({
      href: '/o/harbor-foods/actions?figure=3&day=2026-11-02',
      text: 'Week of 2026-11-02 — Overdue: 2',
    });
    // A zero is a figure too: its list is empty, as the table's zero link says.
    expect(targetOf(FIGURES, points, { index: 0, series: 2 }, count)?.href).toBe('/o/harbor-foods/actions?figure=2&day=2026-11-02');
    expect(targetOf(FIGURES, points, { index: 1, series: 0 }, count)).toBeNull();
    expect(targetOf(FIGURES, points, null, count)).toBeNull();
    // One series (a line): the point's own words.
    const scores = [point('2026-11-02', [86.4])];
    expect(targetOf([{ name: 'Average score', tone: 'accent' }], scores, { index: 0, series: 0 }, count)).toEqual({
      href: '/o/harbor-foods/actions?figure=0&day=2026-11-02',
      text: 'Week of 2026-11-02',
    });
  });
});
