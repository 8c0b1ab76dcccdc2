// Schedules in plain words (issue 26, part 8; web/src/features/schedules/utils/recurrence-words.ts)
// and the editor's recurrence builder (recurrence-builder.ts): the sentence the list and the editor
// show for each shape of rule the subset allows, and the rule each set of builder choices makes —
// and back, so a saved schedule opens with the choices it was made with.
import { recurrenceProblem } from '@schemas/recurrence';
import { describe, expect, it } from 'vitest';
import { buildRecurrence, defaultRecurrence, recurrenceDraftOf, type RecurrenceDraft } from '../../web/src/features/schedules/utils/recurrence-builder';
import { dueWords, listWords, ordinalNumber, scheduleWords } from '../../web/src/features/schedules/utils/recurrence-words';

// 2026-12-07 is a Monday.
const words = (rrule: string, extra: { startDate?: string; timeOfDay?: string; dueAfterMinutes?: number | null; endDate?: string | null; today?: string } = {}) =>
  scheduleWords({ rrule, startDate: '2026-12-07', endDate: null, timeOfDay: '08:00', dueAfterMinutes: null, ...extra });

describe('a schedule in plain words', () => {
  it("says the issue's example as the issue says it", () => {
    expect(words('FREQ=WEEKLY;BYDAY=MO', { dueAfterMinutes: (4 * 24 + 9) * 60 })).toBe('Every Monday at 08:00, due Friday 17:00');
  });

  it('words every frequency, interval and kind of day', () => {
    const cases: Array<[string, string]> = [
      ['FREQ=DAILY', 'Every day at 08:00'],
      ['FREQ=DAILY;INTERVAL=3', 'Every 3 days at 08:00'],
      ['FREQ=DAILY;BYDAY=SA,SU', 'Every Saturday and Sunday at 08:00'],
      ['FREQ=DAILY;INTERVAL=2;BYDAY=MO,FR', 'Every 2 days, on Mondays and Fridays at 08:00'],
      ['FREQ=DAILY;BYMONTH=6,7', 'Every day in June and July at 08:00'],
      // No BYDAY: the start date's weekday (a Monday).
      ['FREQ=WEEKLY', 'Every Monday at 08:00'],
      ['FREQ=WEEKLY;BYDAY=TH,MO', 'Every Monday and Thursday at 08:00'],
      ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'Every weekday at 08:00'],
      ['FREQ=WEEKLY;BYDAY=MO,WE,FR;INTERVAL=2', 'Every 2 weeks on Monday, Wednesday and Friday at 08:00'],
      ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU', 'Every day at 08:00'],
      ['FREQ=MONTHLY', 'Every month on the 7th at 08:00'],
      ['FREQ=MONTHLY;BYMONTHDAY=1,15', 'Every month on the 1st and 15th at 08:00'],
      ['FREQ=MONTHLY;BYMONTHDAY=-1', 'Every month on the last day at 08:00'],
      ['FREQ=MONTHLY;BYMONTHDAY=-2;INTERVAL=3', 'Every 3 months on the second-to-last day at 08:00'],
      ['FREQ=MONTHLY;BYDAY=1MO', 'Every month on the first Monday at 08:00'],
      ['FREQ=MONTHLY;BYDAY=-1FR', 'Every month on the last Friday at 08:00'],
      ['FREQ=MONTHLY;BYDAY=2TU,-2TH', 'Every month on the second Tuesday and second-to-last Thursday at 08:00'],
      ['FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR', 'Every month on the 13th when it falls on a Friday at 08:00'],
      ['FREQ=MONTHLY;BYMONTHDAY=1;BYMONTH=1,7', 'Every month on the 1st in January and July at 08:00'],
      ['FREQ=YEARLY', 'Every year on 7 December at 08:00'],
      ['FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1', 'Every year on 1 March at 08:00'],
      ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1', 'Every year on the last day of February at 08:00'],
      ['FREQ=YEARLY;BYMONTH=3;BYDAY=1MO', 'Every year on the first Monday of March at 08:00'],
      ['FREQ=YEARLY;BYDAY=20MO', 'Every year on the 20th Monday of the year at 08:00'],
      ['FREQ=YEARLY;INTERVAL=2;BYMONTH=6', 'Every 2 years on 7 June at 08:00'],
      ['FREQ=YEARLY;BYMONTHDAY=15', 'Every year on the 15th of every month at 08:00'],
    ];
    for (const [rule, sentence] of cases) expect(words(rule), rule).toBe(sentence);
  });

  it('says when it ends: a number of times, UNTIL as written, the end date', () => {
    expect(words('FREQ=WEEKLY;BYDAY=MO;COUNT=10')).toBe('Every Monday at 08:00, 10 times');
    expect(words('FREQ=DAILY;COUNT=1')).toBe('Every day at 08:00, once');
    expect(words('FREQ=DAILY;UNTIL=20261231')).toBe('Every day at 08:00, until Thu 31 Dec 2026');
    expect(words('FREQ=DAILY;UNTIL=20261231T170000')).toBe('Every day at 08:00, until Thu 31 Dec 2026 17:00');
    expect(words('FREQ=DAILY;UNTIL=20261231T170000Z')).toBe('Every day at 08:00, until Thu 31 Dec 2026 17:00 UTC');
    expect(words('FREQ=DAILY', { endDate: '2027-03-31' })).toBe('Every day at 08:00, until Wed 31 Mar 2027');
    expect(words('FREQ=DAILY', { today: '2026-11-27' })).toBe('Every day at 08:00, starting Mon 7 Dec 2026');
    expect(words('FREQ=DAILY', { today: '2026-12-08' })).toBe('Every day at 08:00');
  });

  it('says when each occurrence is due, by weekday where every occurrence starts on the same one', () => {
    expect(dueWords('08:00', 9 * 60, null)).toBe('due 17:00 the same day');
    expect(dueWords('08:00', 9 * 60, 0)).toBe('due 17:00 the same day');
    expect(dueWords('22:00', 4 * 60, null)).toBe('due the next day at 02:00');
    expect(dueWords('08:00', (4 * 24 + 9) * 60, 0)).toBe('due Friday 17:00');
    // Friday 18:00 plus three days: Monday.
    expect(dueWords('18:00', 3 * 24 * 60, 4)).toBe('due Monday 18:00');
    expect(dueWords('08:00', 7 * 24 * 60, 0)).toBe('due the following Monday 08:00');
    expect(dueWords('08:00', (10 * 24 + 9) * 60, 0)).toBe('due 10 days later at 17:00');
    expect(dueWords('08:00', (2 * 24 + 1) * 60, null)).toBe('due 2 days later at 09:00');
    expect(words('FREQ=MONTHLY;BYDAY=-1FR', { dueAfterMinutes: 3 * 24 * 60 })).toBe('Every month on the last Friday at 08:00, due Monday 08:00');
    expect(words('FREQ=DAILY', { dueAfterMinutes: 30 })).toBe('Every day at 08:00, due 08:30 the same day');
  });

  it('has no words for a rule that is not valid', () => {
    expect(words('FREQ=HOURLY')).toBeNull();
    expect(words('')).toBeNull();
  });

  it('lists and counts in English', () => {
    expect(listWords(['a'])).toBe('a');
    expect(listWords(['a', 'b', 'c'])).toBe('a, b and c');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31, 101, 111].map(ordinalNumber)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '31st', '101st', '111th']);
  });
});

describe('the recurrence builder', () => {
  const start = '2026-12-07';
  const draft = (changes: Partial<RecurrenceDraft>): RecurrenceDraft => ({ ...defaultRecurrence(start), ...changes });

  it("starts as every week on the start date's weekday", () => {
    expect(buildRecurrence(defaultRecurrence(start))).toEqual({ rrule: 'FREQ=WEEKLY;BYDAY=MO', endDate: null, problems: {} });
  });

  it('makes a rule of the subset for every choice, each of which opens back as the same choices', () => {
    const choices: Array<[Partial<RecurrenceDraft>, string, string | null]> = [
      [{ repeat: 'daily' }, 'FREQ=DAILY', null],
      [{ repeat: 'daily', interval: '2', ends: 'after_count', count: '30' }, 'FREQ=DAILY;INTERVAL=2;COUNT=30', null],
      [{ repeat: 'weekly', weekdays: ['FR', 'MO'] }, 'FREQ=WEEKLY;BYDAY=MO,FR', null],
      [{ repeat: 'weekly', weekdays: ['MO'], interval: '2', ends: 'on_date', endDate: '2027-06-30' }, 'FREQ=WEEKLY;BYDAY=MO;INTERVAL=2', '2027-06-30'],
      [{ repeat: 'monthly', dayChoice: 'month_day', monthDay: 15 }, 'FREQ=MONTHLY;BYMONTHDAY=15', null],
      [{ repeat: 'monthly', dayChoice: 'month_day', monthDay: -1 }, 'FREQ=MONTHLY;BYMONTHDAY=-1', null],
      [{ repeat: 'monthly', dayChoice: 'weekday', ordinal: 1, weekday: 'MO' }, 'FREQ=MONTHLY;BYDAY=1MO', null],
      [{ repeat: 'monthly', dayChoice: 'weekday', ordinal: -1, weekday: 'FR', interval: '3' }, 'FREQ=MONTHLY;BYDAY=-1FR;INTERVAL=3', null],
      [{ repeat: 'yearly', dayChoice: 'month_day', month: 3, monthDay: 1 }, 'FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1', null],
      [{ repeat: 'yearly', dayChoice: 'weekday', month: 11, ordinal: 4, weekday: 'TH' }, 'FREQ=YEARLY;BYMONTH=11;BYDAY=4TH', null],
    ];
    for (const [change, rule, endDate] of choices) {
      const built = buildRecurrence(draft(change));
      expect(built, rule).toEqual({ rrule: rule, endDate, problems: {} });
      expect(recurrenceProblem(built.rrule)).toBeNull();
      const reopened = recurrenceDraftOf(built.rrule, start, built.endDate);
      expect(reopened.repeat, rule).toBe(change.repeat);
      expect(buildRecurrence(reopened), rule).toEqual(built);
    }
  });

  it('opens a rule it cannot show as a custom rule, kept as written', () => {
    for (const rule of ['FREQ=MONTHLY;BYMONTHDAY=1,15', 'FREQ=DAILY;BYDAY=MO', 'FREQ=WEEKLY;UNTIL=20271231', 'FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=1', 'FREQ=MONTHLY;BYDAY=5MO']) {
      const opened = recurrenceDraftOf(rule, start, null);
      expect(opened.repeat, rule).toBe('custom');
      expect(buildRecurrence(opened).rrule).toBe(rule);
    }
    // A rule without its days takes the start date's, written out.
    expect(buildRecurrence(recurrenceDraftOf('FREQ=WEEKLY', start, null)).rrule).toBe('FREQ=WEEKLY;BYDAY=MO');
  });

  it("says what is wrong with the choices, and the api's words for a custom rule", () => {
    expect(buildRecurrence(draft({ interval: '0' })).problems).toEqual({ interval: 'Use a whole number from 1 to 1000.' });
    expect(buildRecurrence(draft({ interval: '2.5' })).problems).toEqual({ interval: 'Use a whole number from 1 to 1000.' });
    expect(buildRecurrence(draft({ weekdays: [] })).problems).toEqual({ weekdays: 'Choose at least one day.' });
    expect(buildRecurrence(draft({ ends: 'after_count', count: '10001' })).problems).toEqual({ count: 'Use a whole number from 1 to 10000.' });
    expect(buildRecurrence(draft({ ends: 'on_date', endDate: '' })).problems).toEqual({ end_date: 'Choose the last day, or another way to end.' });
    expect(buildRecurrence(draft({ repeat: 'yearly', month: 2, monthDay: 30 })).problems).toEqual({ month_day: 'February has at most 29 days.' });
    expect(buildRecurrence(draft({ repeat: 'custom', custom: 'freq=weekly;byday=mo,1fr' })).problems).toEqual({
      rrule: 'Numbered days (1MO, -1FR) need FREQ=MONTHLY or YEARLY.',
    });
  });
});
