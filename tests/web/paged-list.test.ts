// The status line of a list screen (web/src/components/ui/paged-list.tsx): how many rows are
// shown, with "+" while the api has more pages, in the singular for one.
import { describe, expect, it } from 'vitest';
import { listCountText } from '../../web/src/components/ui/paged-list';

describe('a list screen counts its rows', () => {
  it('in the plural, the singular for one, and with "+" while more pages can be loaded', () => {
    expect(listCountText(12, false, ['site', 'sites'])).toBe('12 sites');
    expect(listCountText(1, false, ['entry', 'entries'])).toBe('1 entry');
    expect(listCountText(50, true, ['entry', 'entries'])).toBe('50+ entries');
  });
});
