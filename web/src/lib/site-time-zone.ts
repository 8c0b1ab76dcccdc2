import { createContext } from 'react';

/**
 * The time zone of the site a page is about (an inspection's, an action's, a site's own): a due
 * date typed there is on that site's clock (components/ui/due-field.tsx), even in a form that
 * another feature renders inside the page (an item's "Add action").
 */
export const SiteTimeZone = createContext<string | null>(null);
