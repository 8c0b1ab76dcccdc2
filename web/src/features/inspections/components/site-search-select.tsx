import type { SelectHTMLAttributes } from 'react';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import type { Choice } from './inspection-list';

/** A server-side search of the active sites (the route runs it): an organization may have thousands. */
export interface SiteSearch {
  query: string;
  onQueryChange: (query: string) => void;
  /** Active sites matching `query`. */
  choices: Choice[];
  /** More sites match than `choices` holds. */
  more: boolean;
  /** The time zone of a site among the choices (a due time is typed on the site's clock). */
  timeZoneOf: (siteId: string) => string | undefined;
}

interface SiteSearchSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name'> {
  search: SiteSearch;
  /** The first option, which chooses no site. */
  noneLabel: string;
  /** A chosen site kept among the options while the search no longer finds it. */
  selected?: Choice;
  error?: string;
}

/** A search box narrowing a "Site" select, for the schedule form and the list's filter. */
export function SiteSearchSelect({ search, noneLabel, selected, ...selectProps }: SiteSearchSelectProps) {
  const { query, onQueryChange, choices, more } = search;
  const options = selected && !choices.some((choice) => choice.value === selected.value) ? [selected, ...choices] : choices;
  return (
    <>
      <TextField
        // Not "site" in the label: getByLabel('Site') (the select) must stay unambiguous.
        label="Search by name or address"
        name="site_query"
        type="search"
        value={query}
        onChange={(event) => onQueryChange(event.target.value)}
        // Enter narrows the list; it must not submit a form whose site is not chosen yet.
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.preventDefault();
        }}
        hint={more ? `Narrows the sites below: only the first ${choices.length} matches are listed.` : 'Narrows the sites below.'}
      />
      <SelectField label="Site" name="site_id" options={[{ value: '', label: noneLabel }, ...options]} {...selectProps} />
    </>
  );
}
