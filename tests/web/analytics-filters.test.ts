// The analytics page's address (issue 28; docs/analytics.md "Screens"): the filters read from it
// with the api's own rules — a value the api would refuse is left out and named, never sent — and
// written back with only what differs from the defaults, so a shared link reads the same; and the
// lists each figure links to, with the local days of its period cut by the range.
import { describe, expect, it } from 'vitest';
import {
  actionsHref,
  analyticsSearch,
  apiQuery,
  deviceToday,
  inspectionsHref,
  NO_FILTERS,
  parseAnalyticsFilters,
  periodDays,
  periodLabel,
  periodsOf,
} from '../../web/src/features/analytics/utils/filters';

const GROUP = '0d000000-0000-4000-8000-0000000000aa';
const SITE = '0d000000-0000-4000-8000-0000000000bb';
const TEMPLATE = '0d000000-0000-4000-8000-0000000000cc';

const parse = (query: string) => parseAnalyticsFilters(new URLSearchParams(query));

describe('reading the filters from the address', () => {
  it('reads every filter, and an empty address as the defaults (the last 12 weeks)', () => {
    expect(parse('')).toEqual({ filters: NO_FILTERS, ignored: [] });
    expect(parse(`from=2026-01-05&to=2026-03-29&interval=month&group=${GROUP}&site=${SITE}&template=${TEMPLATE}`)).toEqual({
      filters: { from: '2026-01-05', to: '2026-03-29', interval: 'month', group: GROUP, site: SITE, template: TEMPLATE },
      ignored: [],
    });
  });

  it('reads an id in capitals as the api does, in lower case', () => {
    expect(parse(`site=${SITE.toUpperCase()}`).filters.site).toBe(SITE);
  });

  it('leaves out a malformed value and says which and why; the other filters still apply', () => {
    expect(parse(`from=2026-02-30&to=29/03/2026&interval=fortnight&group=north&site=42&template=${TEMPLATE}`)).toEqual({
      filters: { ...NO_FILTERS, template: TEMPLATE },
      ignored: [
        { name: 'from', reason: 'not a date (YYYY-MM-DD)' },
        { name: 'to', reason: 'not a date (YYYY-MM-DD)' },
        { name: 'interval', reason: 'use week or month' },
        { name: 'group', reason: 'not an id' },
        { name: 'site', reason: 'not an id' },
      ],
    });
  });

  it('leaves out a range the api would refuse: an end before the start, more than 366 days, outside 2000–2100', () => {
    // The start goes: the default twelve periods up to the end stand.
    expect(parse('from=2026-03-01&to=2026-02-01')).toEqual({
      filters: { ...NO_FILTERS, to: '2026-02-01' },
      ignored: [{ name: 'from', reason: 'end on or after the start' }],
    });
    expect(parse('from=2025-01-01&to=2026-03-01')).toEqual({
      filters: { ...NO_FILTERS, to: '2026-03-01' },
      ignored: [{ name: 'from', reason: 'ask for at most 366 days at a time' }],
    });
    // A start long ago and no end (today): the start goes, and the default twelve periods stand.
    expect(parse('from=2001-01-01')).toEqual({ filters: NO_FILTERS, ignored: [{ name: 'from', reason: 'ask for at most 366 days at a time' }] });
    expect(parse('from=1999-12-31&to=2000-01-31')).toEqual({
      filters: { ...NO_FILTERS, to: '2000-01-31' },
      ignored: [{ name: 'from', reason: 'choose a date from 2000 to 2100' }],
    });
    expect(parse('to=2101-01-01').ignored).toEqual([{ name: 'to', reason: 'choose a date from 2000 to 2100' }]);
  });

  it('takes a leap year whole, and no more', () => {
    expect(parse('from=2028-01-01&to=2028-12-31').ignored).toEqual([]);
    expect(parse('from=2027-12-31&to=2028-12-31').ignored).toHaveLength(1);
  });
});

describe('writing the filters to the address', () => {
  it('writes only what differs from the defaults, and reads back the same', () => {
    expect(analyticsSearch(NO_FILTERS).toString()).toBe('');
    const filters = { from: '2026-01-05', to: '', interval: 'month' as const, group: GROUP, site: '', template: TEMPLATE };
    const search = analyticsSearch(filters);
    expect(search.toString()).toBe(`from=2026-01-05&interval=month&group=${GROUP}&template=${TEMPLATE}`);
    expect(parseAnalyticsFilters(search)).toEqual({ filters, ignored: [] });
  });

  it('asks the api with its own names', () => {
    expect(apiQuery({ from: '2026-01-05', to: '2026-03-29', interval: 'week', group: GROUP, site: SITE, template: TEMPLATE })).toEqual({
      from: '2026-01-05', to: '2026-03-29', interval: 'week', site_group_id: GROUP, site_id: SITE, template_id: TEMPLATE,
    });
    expect(apiQuery(NO_FILTERS, '2026-03-30')).toEqual({ interval: 'week', to: '2026-03-30' });
  });
});

describe("the device's today as the range's end", () => {
  // Monday 08:00 in Auckland is still Sunday in UTC: the api's own default would miss the site's
  // current day until 13:00 there.
  const aucklandMondayMorning = Date.parse('2026-11-29T19:00:00Z');

  it("is the day on the device's clock, in its zone", () => {
    expect(deviceToday(aucklandMondayMorning, 'Pacific/Auckland')).toBe('2026-11-30');
    expect(deviceToday(aucklandMondayMorning, 'UTC')).toBe('2026-11-29');
    expect(deviceToday(aucklandMondayMorning, 'America/Los_Angeles')).toBe('2026-11-29');
    expect(deviceToday(Date.parse('2026-11-30T07:59:00Z'), 'America/Los_Angeles')).toBe('2026-11-29');
    expect(deviceToday(Date.parse('2026-11-30T08:00:00Z'), 'America/Los_Angeles')).toBe('2026-11-30');
  });

  it('is sent as `to` when the address names none; a `to` in the address is sent as it is', () => {
    const today = deviceToday(aucklandMondayMorning, 'Pacific/Auckland');
    expect(apiQuery(NO_FILTERS, today)).toEqual({ interval: 'week', to: '2026-11-30' });
    expect(apiQuery({ ...NO_FILTERS, to: '2026-11-01' }, today).to).toBe('2026-11-01');
  });

  it("takes the device's today as a start when no end is named, as the range that is sent", () => {
    const today = deviceToday(aucklandMondayMorning, 'Pacific/Auckland');
    expect(parseAnalyticsFilters(new URLSearchParams('from=2026-11-30'), today)).toEqual({ filters: { ...NO_FILTERS, from: '2026-11-30' }, ignored: [] });
    // A day after the device's today is still refused, as the api would refuse it.
    expect(parseAnalyticsFilters(new URLSearchParams('from=2026-12-01'), today).ignored).toEqual([{ name: 'from', reason: 'end on or after the start' }]);
  });
});

describe('the periods and the lists a figure links to', () => {
  const range = { from: '2026-01-07', to: '2026-03-10' };

  it('a period counts its own days, the first and last cut by the range', () => {
    expect(periodDays('2026-01-05', 'week', range)).toEqual({ from: '2026-01-07', to: '2026-01-11' });
    expect(periodDays('2026-02-02', 'week', range)).toEqual({ from: '2026-02-02', to: '2026-02-08' });
    expect(periodDays('2026-03-09', 'week', range)).toEqual({ from: '2026-03-09', to: '2026-03-10' });
    expect(periodDays('2026-01-01', 'month', range)).toEqual({ from: '2026-01-07', to: '2026-01-31' });
    expect(periodDays('2026-02-01', 'month', range)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(periodDays('2028-02-01', 'month', { from: '2028-01-01', to: '2028-12-31' })).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('names and lists the periods of a range', () => {
    expect(periodsOf(range, 'month')).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
    expect(periodsOf({ from: '2026-01-07', to: '2026-01-19' }, 'week')).toEqual(['2026-01-05', '2026-01-12', '2026-01-19']);
    expect(periodLabel('2026-01-05', 'week')).toBe('Week of 5 Jan 2026');
    expect(periodLabel('2026-02-01', 'month')).toBe('Feb 2026');
  });

  it('links a score to the submitted and approved inspections of its days, keeping the site, group and template', () => {
    const filters = { ...NO_FILTERS, group: GROUP, site: SITE, template: TEMPLATE };
    const href = inspectionsHref('harbor', filters, { submitted: { from: '2026-02-02', to: '2026-02-08' } });
    const [path, query] = href.split('?');
    expect(path).toBe('/o/harbor/inspections');
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
      site: SITE, group: GROUP, template_id: TEMPLATE, status: 'submitted,approved', submitted_day_from: '2026-02-02', submitted_day_to: '2026-02-08',
    });
  });

  it('links an on-time figure to the occurrences due on its days by outcome, and a failed item to where it failed', () => {
    const onTime = new URLSearchParams(inspectionsHref('harbor', NO_FILTERS, { due: { from: '2026-02-02', to: '2026-02-08' }, outcome: 'missed' }).split('?')[1]);
    expect(Object.fromEntries(onTime)).toEqual({ due_day_from: '2026-02-02', due_day_to: '2026-02-08', outcome: 'missed' });
    const failed = new URLSearchParams(inspectionsHref('harbor', NO_FILTERS, { submitted: range, template: TEMPLATE, failedItem: 'fridge_temp', site: SITE }).split('?')[1]);
    expect(Object.fromEntries(failed)).toEqual({
      site: SITE, template_id: TEMPLATE, status: 'submitted,approved', submitted_day_from: range.from, submitted_day_to: range.to, failed_item: 'fridge_temp',
    });
  });

  it('links an action figure to the actions of its days, never the canceled ones; overdue to those not resolved by their due time', () => {
    const opened = new URLSearchParams(actionsHref('harbor', { ...NO_FILTERS, site: SITE }, 'opened', { from: '2026-02-02', to: '2026-02-08' }, 'high').split('?')[1]);
    expect(Object.fromEntries(opened)).toEqual({
      site: SITE, status: 'open,in_progress,resolved,verified', priority: 'high', opened_day_from: '2026-02-02', opened_day_to: '2026-02-08',
    });
    const overdue = new URLSearchParams(actionsHref('harbor', NO_FILTERS, 'overdue', { from: '2026-02-02', to: '2026-02-08' }, null).split('?')[1]);
    expect(Object.fromEntries(overdue)).toEqual({
      status: 'open,in_progress,resolved,verified', due_day_from: '2026-02-02', due_day_to: '2026-02-08', missed_due: 'true',
    });
  });
});
