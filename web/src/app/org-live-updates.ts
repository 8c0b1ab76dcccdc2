import type { Membership } from '@schemas/profile';
import { useQueryClient, type Query, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { actionKeys } from '../features/actions/api/get-actions';
import { activityKeys } from '../features/audit/api/get-activity';
import { auditLogKeys } from '../features/audit/api/get-audit-log';
import { dashboardKeys } from '../features/dashboard/api/get-dashboard';
import { inspectionKeys } from '../features/inspections/api/get-inspections';
import { invitationKeys } from '../features/invitations/api/get-invitations';
import { memberKeys } from '../features/members/api/get-members';
import { organizationQueryOptions } from '../features/organizations/api/get-organization';
import { organizationKeys } from '../features/organizations/api/get-organizations';
import { meQueryOptions } from '../features/profile/api/get-me';
import { siteQueryOptions } from '../features/sites/api/get-site';
import { siteKeys } from '../features/sites/api/get-sites';
import { templateQueryOptions } from '../features/templates/api/get-template';
import { templateKeys } from '../features/templates/api/get-templates';
import type { OrgChange, OrgChannelListener, OrgChannelScope } from '../lib/org-channel';
import { lazyWatch } from '../lib/lazy-watch';
import { refreshOrganizations } from './refresh-memberships';
import type { OrgsRouteState } from './routes/orgs';

/**
 * Everything about schedules (features/schedules/api/get-schedules.ts, scheduleKeys.all): written
 * out rather than imported, which would bring that feature into every page's first load.
 */
const scheduleQueryKey = (orgId: string) => ['schedules', orgId];
/** The site groups (features/site-groups/api/get-site-groups.ts, siteGroupKeys.all), written out for the same reason. */
const siteGroupQueryKey = (orgId: string) => ['site-groups', orgId];
/**
 * Schedule screens read one request per schedule (the calendar, the dashboard), and a schedule made
 * or changed announces each of its occurrences: they are read again at most this often.
 */
const SCHEDULES_WAIT_MS = 400;

// How long the end of our membership waits for an organization_deleted of the same transaction.
const ORGANIZATION_DELETION_WAIT_MS = 500;

/** Every cached query that belongs to one organization. */
function organizationQueryKeys(orgId: string): QueryKey[] {
  return [
    siteKeys.all(orgId),
    templateKeys.all(orgId),
    inspectionKeys.all(orgId),
    actionKeys.all(orgId),
    activityKeys.all(orgId),
    dashboardKeys.all(orgId),
    scheduleQueryKey(orgId),
    siteGroupQueryKey(orgId),
    memberKeys.all(orgId),
    invitationKeys.all(orgId),
    organizationQueryOptions(orgId).queryKey,
  ];
}

/** The queries a change makes stale: the same keys the screens read through their queryOptions. */
function keysChangedBy(change: OrgChange, userId: string): QueryKey[] {
  const orgId = change.org_id;
  // Each change may be a step of the work that the dashboard's activity feed lists.
  const feed = [activityKeys.all(orgId), auditLogKeys.all(orgId)];
  switch (change.entity) {
    case 'site':
      // A site moved between groups changes the groups' counts.
      return [siteKeys.lists(orgId), siteQueryOptions(orgId, change.id).queryKey, siteGroupQueryKey(orgId), ...feed];
    case 'site_group':
      // A group renamed or moved names the sites in it differently; one deleted filters nothing.
      return [siteGroupQueryKey(orgId), siteKeys.lists(orgId), ...feed];
    case 'inspection':
      // The run page follows its own topic (inspection:<id>); lists and counts follow the organization's.
      // A submit opens actions in the same transaction; their own events follow. (Schedules'
      // occurrences follow their inspections: onEvent below.)
      return [inspectionKeys.lists(orgId), dashboardKeys.all(orgId), ...feed];
    case 'schedule':
      return feed;
    case 'action':
      return [actionKeys.lists(orgId), actionKeys.detail(orgId, change.id), dashboardKeys.all(orgId), ...feed];
    case 'action_attachment':
      return change.action_id ? [actionKeys.detail(orgId, change.action_id)] : [actionKeys.all(orgId)];
    case 'template':
      return [templateKeys.lists(orgId), templateQueryOptions(orgId, change.id).queryKey, ...feed];

    case 'member':
      // Our own role and site access are read from /me (navigation, buttons, the topics joined) and from the organization.
      return change.user_id === userId
        ? [memberKeys.list(orgId), meQueryOptions().queryKey, organizationQueryOptions(orgId).queryKey]
        : [memberKeys.list(orgId)];
    case 'invitation':
      return [invitationKeys.all(orgId)];
    case 'organization':
      // The header and the switcher show the name from /me's memberships.
      return [organizationQueryOptions(orgId).queryKey, organizationKeys.list(), meQueryOptions().queryKey];
  }
}

/**
 * A limited member's groups, sorted and joined (`scopeOfMembership` in lib/org-channel.ts, which
 * is not loaded yet when this runs); null for an org-wide member.
 */
function limitedGroupsKey(membership: Membership): string | null {
  return membership.org_wide === false ? [...membership.site_group_ids].sort().join(',') : null;
}

/**
 * While a page of the organization is open, keeps its cached data live from `org:<id>`: each change
 * invalidates the queries it touches; losing the organization (deleted, or removed from it) leaves
 * for /orgs with a notice.
 */
export function useOrgLiveUpdates(membership: Membership | undefined, userId: string | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const orgId = membership?.org_id;
  const orgName = useRef(membership?.org_name);
  // The groups a limited member follows, as one string so that the effect re-runs only when they change.
  const limitedTo = membership ? limitedGroupsKey(membership) : null;

  useEffect(() => {
    if (membership) orgName.current = membership.org_name;
  }, [membership]);

  useEffect(() => {
    if (!orgId || !userId) return;

    function leave(notice: string) {
      navigate('/orgs', { replace: true, state: { notice } satisfies OrgsRouteState });
      // The lists that named it are re-read; its own cache expires unused.
      refreshOrganizations(queryClient);
    }

    let removal: ReturnType<typeof setTimeout> | undefined;
    let schedulesChanged: ReturnType<typeof setTimeout> | undefined;
    const listener: OrgChannelListener = {
      onEvent(change) {
        const name = orgName.current ?? 'The organization';
        if (change.event === 'organization_deleted') {
          clearTimeout(removal);
          return leave(`${name} was deleted.`);
        }
        if (change.event === 'member_deleted' && change.user_id === userId) {
          // Deleting the organization removes its memberships first, in the same transaction: wait for that word.
          clearTimeout(removal);
          removal = setTimeout(
            // The same words as the members page when we leave ourselves (in this tab or another).
            () => leave(change.actor_id === userId ? `You left ${name}.` : `You were removed from ${name}.`),
            ORGANIZATION_DELETION_WAIT_MS,
          );
          return;
        }
        for (const queryKey of keysChangedBy(change, userId)) void queryClient.invalidateQueries({ queryKey });
        // An occurrence's state, compliance and a schedule's next occurrence follow its inspection.
        if ((change.entity === 'schedule' || change.entity === 'inspection') && !schedulesChanged) {
          schedulesChanged = setTimeout(() => {
            schedulesChanged = undefined;
            void queryClient.invalidateQueries({ queryKey: scheduleQueryKey(orgId) });
          }, SCHEDULES_WAIT_MS);
        }
      },
      onJoined(resumed) {
        // After a lost connection anything may have changed; on the first join, what was read before
        // it (supabase-js, and so the join, comes a moment after the first screen's data: lib/auth.ts).
        // An inspection open on screen is read again by its own topic's first join
        // (use-inspection-live.ts): reading it twice would parse a large inspection twice.
        const joinedAt = Date.now();
        const changedSince = resumed
          ? undefined
          : (query: Query) => query.state.dataUpdatedAt < joinedAt && !(query.queryKey[2] === 'detail' && query.queryKey[0] === 'inspections' && query.getObserversCount() > 0);
        for (const queryKey of organizationQueryKeys(orgId)) void queryClient.invalidateQueries({ queryKey, predicate: changedSince });
        if (resumed) void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
        else void queryClient.refetchQueries({ queryKey: meQueryOptions().queryKey, type: 'active', stale: true });
      },
      onRefused() {
        // Refused: the memberships tell whether the organization is still ours.
        void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
      },
    };
    const scope: OrgChannelScope = limitedTo === null ? { orgWide: true } : { orgWide: false, groupIds: limitedTo === '' ? [] : limitedTo.split(',') };
    const watch = lazyWatch(() => import('../lib/org-channel').then(({ watchOrgChannel }) => watchOrgChannel(orgId, userId, listener, scope)));
    return () => {
      clearTimeout(removal);
      clearTimeout(schedulesChanged);
      watch.stop();
    };
  }, [orgId, userId, limitedTo, queryClient, navigate]);
}
