import { occurrenceTitle } from '@schemas/schedules';
import { useEffect, useState } from 'react';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { PreviewOccurrence } from '../utils/occurrence-expansion';
import { expandOccurrences, PreviewTimeout } from '../utils/preview-client';
import { formatLocalTime, zoneLabel } from '../utils/schedule-time';
import type { SiteOption } from './site-picker';

export const PREVIEW_COUNT = 5;

export interface PreviewDraft {
  /** The rule's words, or null while the rule is not valid. */
  words: string | null;
  /** Null while the rule has a problem. */
  rrule: string | null;
  startDate: string;
  endDate: string | null;
  timeOfDay: string;
  /** Null while the due window has a problem. */
  dueAfterMinutes: number | null;
  sites: SiteOption[];
  titlePattern: string;
  templateName: string | null;
  /** Names of the rotation's people in turn, or empty. */
  rotation: string[];
}

/** Sites in one zone share their occurrences' times: worked out once per zone. */
interface ZoneGroup {
  zone: string;
  sites: SiteOption[];
  occurrences: PreviewOccurrence[];
}

type PreviewState =
  | { status: 'idle' }
  /** The last answer stays on screen while the next is worked out: the preview does not flicker as one types. */
  | { status: 'working'; byZone?: Record<string, PreviewOccurrence[]> }
  | { status: 'ready'; byZone: Record<string, PreviewOccurrence[]> }
  | { status: 'too_slow' }
  | { status: 'failed' };

/** The sites by zone, each zone with its occurrences, the soonest first ("next" reads in time order). */
function zoneGroups(sites: SiteOption[], byZone: Record<string, PreviewOccurrence[]>): ZoneGroup[] {
  const groups = new Map<string, ZoneGroup>();
  for (const site of sites) {
    const occurrences = byZone[site.timezone];
    if (!occurrences) continue;
    const group = groups.get(site.timezone) ?? { zone: site.timezone, sites: [], occurrences };
    group.sites.push(site);
    groups.set(site.timezone, group);
  }
  return [...groups.values()].sort((a, b) => (a.occurrences[0]?.at ?? '9').localeCompare(b.occurrences[0]?.at ?? '9') || a.zone.localeCompare(b.zone));
}

function sitesText(sites: SiteOption[]): string {
  return sites.length <= 2 ? sites.map((site) => site.name).join(' and ') : `${sites[0].name}, ${sites[1].name} and ${sites.length - 2} more`;
}

/**
 * The draft in plain words and each site's next five occurrences, as they will be made, worked out
 * in the browser as the form changes (utils/occurrence-expansion.ts; tests/api/schedules/
 * web-preview.test.ts holds it to the database): "Every Monday at 08:00, due Friday 17:00 — next:
 * Mon 30 Nov 08:00 PST (Capitol Hill), Mon 30 Nov 08:00 NZDT (Auckland)".
 */
export function DraftPreview({ draft }: { draft: PreviewDraft }) {
  const settled = useDebouncedValue(draft, 250);
  const [state, setState] = useState<PreviewState>({ status: 'idle' });
  const { rrule, startDate, endDate, timeOfDay, dueAfterMinutes, sites } = settled;
  const zonesKey = JSON.stringify([...new Set(sites.map((site) => site.timezone))].sort());

  useEffect(() => {
    if (rrule === null || dueAfterMinutes === null || !/^\d{4}-\d\d-\d\d$/.test(startDate) || !/^\d\d:\d\d$/.test(timeOfDay) || zonesKey === '[]') {
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    const zones: string[] = JSON.parse(zonesKey);
    setState((previous) => ({ status: 'working', byZone: 'byZone' in previous ? previous.byZone : undefined }));
    const after = Date.now();
    expandOccurrences(zones.map((zone) => ({ rule: rrule, startDate, endDate, timeOfDay, dueAfterMinutes, zone, after, count: PREVIEW_COUNT })))
      .then((results) => {
        if (current) setState({ status: 'ready', byZone: Object.fromEntries(zones.map((zone, i) => [zone, results[i]])) });
      })
      .catch((error: unknown) => {
        if (current) setState({ status: error instanceof PreviewTimeout ? 'too_slow' : 'failed' });
      });
    return () => {
      current = false;
    };
    // Only the sites' zones count here; their names are read when shown.
  }, [rrule, startDate, endDate, timeOfDay, dueAfterMinutes, zonesKey]);

  const shown = state.status === 'ready' || state.status === 'working' ? state.byZone : undefined;
  const groups = shown ? zoneGroups(sites, shown) : [];
  const next = groups.filter((group) => group.occurrences.length > 0);
  const first = next[0];
  const title = first && draft.templateName ? occurrenceTitle(draft.titlePattern || '{template} — {site} — {date}', first.sites[0].name, draft.templateName, first.occurrences[0].local.slice(0, 10)) : null;

  return (
    <section className="schedule-preview" aria-labelledby="schedule-preview-heading">
      <h2 id="schedule-preview-heading">Preview</h2>
      <div aria-live="polite">
        <p className="schedule-words">{draft.words ?? 'The rule needs attention before it can be read.'}</p>
        {next.length > 0 ? (
          <p data-testid="next-occurrences">
            Next:{' '}
            {next.map((group, i) => (
              <span key={group.zone}>
                {i > 0 ? ', ' : ''}
                {formatLocalTime(group.occurrences[0].local, group.occurrences[0].at, group.zone)} ({sitesText(group.sites)})
              </span>
            ))}
          </p>
        ) : null}
        {sites.length === 0 ? <p className="muted">Choose sites to see each one's next occurrences, at its own local time.</p> : null}
        {state.status === 'working' && groups.length === 0 ? <p className="muted">Working out the next occurrences…</p> : null}
        {state.status === 'ready' && next.length === 0 ? <p>No occurrence from now on: the rule, its start or its end leaves none.</p> : null}
        {state.status === 'too_slow' ? (
          <p className="form-alert form-alert-error">
            No occurrence could be found quickly: the rule's days may never come (30 February never does). Check the rule; it can still be saved.
          </p>
        ) : null}
        {state.status === 'failed' ? <p className="form-alert form-alert-error">The preview could not be worked out on this device. The schedule can still be saved.</p> : null}
      </div>
      {title ? (
        <p className="muted">
          First title: <span className="schedule-title-preview">{title}</span>
        </p>
      ) : null}
      {next.length > 0 ? (
        <ul className="preview-groups">
          {next.map((group) => (
            <li key={group.zone}>
              <h3>
                {sitesText(group.sites)} <span className="muted">({zoneLabel(group.zone, group.occurrences[0].at)}, {group.zone})</span>
              </h3>
              <ol className="preview-occurrences">
                {group.occurrences.map((occurrence) => (
                  <li key={occurrence.at}>
                    {formatLocalTime(occurrence.local, occurrence.at, group.zone, { year: true })}
                    <span className="muted"> — due {formatLocalTime(occurrence.dueLocal, occurrence.due, group.zone)}</span>
                    {draft.rotation.length > 0 ? <span className="muted"> — {draft.rotation[(occurrence.n - 1) % draft.rotation.length]}</span> : null}
                  </li>
                ))}
              </ol>
            </li>
          ))}
        </ul>
      ) : null}
      {groups.some((group) => group.occurrences.length < PREVIEW_COUNT && group.occurrences.length > 0) ? (
        <p className="muted">Fewer than {PREVIEW_COUNT} are listed where the rule ends sooner (or has none in the next twenty years).</p>
      ) : null}
    </section>
  );
}
