import type { Membership } from '@schemas/profile';
import { useOutletContext } from 'react-router-dom';

/** What every page under /o/:org knows: the organization and the user's role in it. */
export interface OrgRouteContext {
  membership: Membership;
  userId: string;
}

export function useOrgRoute(): OrgRouteContext {
  return useOutletContext<OrgRouteContext>();
}
