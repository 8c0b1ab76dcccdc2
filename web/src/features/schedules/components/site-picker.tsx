import { MapPin, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { zoneLabel } from '../utils/schedule-time';

export interface SiteOption {
  id: string;
  name: string;
  timezone: string;
}

const SHOWN_CHOSEN = 40;

/** A server-side search of the active sites (the route runs it: an organization may have 100,000). */
export interface SiteFinder {
  query: string;
  onQueryChange: (query: string) => void;
  results: SiteOption[];
  /** More sites match than `results` holds. */
  more: boolean;
  loadMore: () => void;
  loading: boolean;
}

interface SitePickerProps {
  finder: SiteFinder;
  chosen: SiteOption[];
  onChange: (sites: SiteOption[]) => void;
  error?: string;
}

/** The schedule's sites: the chosen ones (each with its zone), and a search to add more, one by one or all found at once. */
export function SitePicker({ finder, chosen, onChange, error }: SitePickerProps) {
  const id = useId();
  const chosenIds = new Set(chosen.map((site) => site.id));
  const toggle = (site: SiteOption) => onChange(chosenIds.has(site.id) ? chosen.filter((other) => other.id !== site.id) : [...chosen, site]);
  const notChosen = finder.results.filter((site) => !chosenIds.has(site.id));
  const now = new Date();
  // A schedule may have 10,000 sites: the first ones are listed, the rest on request.
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? chosen : chosen.slice(0, SHOWN_CHOSEN);
  return (
    <fieldset className="fieldset" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Sites</legend>
      {chosen.length === 0 ? (
        <p className="muted">No sites chosen yet: search below and tick them.</p>
      ) : (
        <ul className="chip-list" aria-label="Chosen sites">
          {shown.map((site) => (
            <li key={site.id} className="chip">
              <MapPin aria-hidden="true" size={14} />
              <span>
                {site.name} <span className="muted">({zoneLabel(site.timezone, now)})</span>
              </span>
              <button type="button" className="chip-remove" aria-label={`Remove ${site.name}`} onClick={() => toggle(site)}>
                <X aria-hidden="true" size={16} />
              </button>
            </li>
          ))}
          {shown.length < chosen.length ? (
            <li>
              <Button variant="link" onClick={() => setShowAll(true)}>
                Show all {chosen.length} sites
              </Button>
            </li>
          ) : null}
        </ul>
      )}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <TextField
        label="Find sites"
        name="site_query"
        type="search"
        value={finder.query}
        onChange={(event) => finder.onQueryChange(event.target.value)}
        onKeyDown={(event) => {
          // Enter searches; it must not send the schedule.
          if (event.key === 'Enter') event.preventDefault();
        }}
        hint="By name or address; active sites only."
      />
      {finder.results.length === 0 ? (
        <p className="muted">{finder.loading ? 'Searching…' : 'No sites match.'}</p>
      ) : (
        <ul className="site-choices" aria-label="Sites found" aria-busy={finder.loading || undefined}>
          {finder.results.map((site) => (
            <li key={site.id}>
              <label className="checkbox-row">
                <input type="checkbox" checked={chosenIds.has(site.id)} onChange={() => toggle(site)} />
                <span>
                  {site.name} <span className="muted">({zoneLabel(site.timezone, now)})</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="button-row">
        {notChosen.length > 1 ? (
          <Button variant="secondary" onClick={() => onChange([...chosen, ...notChosen])}>
            Add the {notChosen.length} sites found
          </Button>
        ) : null}
        {finder.more ? (
          <Button variant="secondary" pending={finder.loading} onClick={finder.loadMore}>
            Show more sites
          </Button>
        ) : null}
        {chosen.length > 1 ? (
          <Button variant="link" onClick={() => onChange([])}>
            Remove all sites
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}
