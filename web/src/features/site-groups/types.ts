// The shapes of the site-group routes (docs/site-groups.md), as the api's zod module describes them;
// type-only, so no zod comes with them.
export type { SiteGroup, SitesMoved } from '@schemas/site-groups';
