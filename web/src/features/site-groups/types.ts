// The shapes of the site-group routes as the web reads them (docs/site-groups.md). Until the api's
// zod module lands these follow the contract of issue 27; see @schemas/site-groups.
export interface SiteGroup {
  id: string;
  name: string;
  parent_id: string | null;
  /** 1 = top level; kept by the database. */
  depth: number;
  /** Sites directly in the group. */
  site_count: number;
  child_count: number;
  created_at: string;
  updated_at: string;
}
