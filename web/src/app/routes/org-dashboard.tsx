import { can } from '@schemas/roles';
import { ArrowRight, ClipboardCheck, MapPin, Repeat } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { GroupFilterField, GroupFilterNotFound } from '@/components/ui/group-filter-field';
import { ActivityFeed } from '@/features/audit/components/activity-feed';
import { ActionCounts, DashboardCounts, MyWork } from '@/features/dashboard/components/dashboard-counts';
import { ComplianceTiles } from '@/features/schedules/components/compliance-figures';
import { MyOccurrences } from '@/features/schedules/components/my-occurrences';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { useGroupParam } from '@/lib/group-param';
import { roleWithArticle } from '@/lib/roles';
import { useOrgRoute } from '../org-context';

/**
 * `/o/:org`: my work, what opens for me today and this week, this week's schedule compliance,
 * inspection and action counts (each a link to its list), the live activity feed, where to go next;
 * the counts of one site group when the address says (`?group=<id>`).
 */
export function OrgDashboardRoute() {
  const { membership, userId } = useOrgRoute();
  const base = `/o/${membership.org_slug}`;
  const { choices } = useGroupTree(membership.org_id);
  const [groupId, setGroupId] = useGroupParam();
  return (
    <ContentLayout title={membership.org_name} description={`You're ${roleWithArticle(membership.role)} here.`}>
      {/*
        Always in the page, at its height from the first paint, so nothing below moves when the groups
        arrive; with no group to choose it only says what the counts cover.
      */}
      <div className="dashboard-filter" role="search" aria-label="Which sites the counts cover">
        <GroupFilterField choices={choices} value={groupId} onChange={setGroupId} label="Sites" disabled={choices !== undefined && choices.length === 0 && groupId === ''} />
      </div>
      <GroupFilterNotFound choices={choices} value={groupId} onClear={() => setGroupId('')} />
      {membership.role !== 'viewer' ? (
        <section className="panel" aria-labelledby="my-work-heading">
          <h2 id="my-work-heading">My work</h2>
          <MyWork orgId={membership.org_id} orgPath={base} groupId={groupId} />
        </section>
      ) : null}
      {membership.role !== 'viewer' ? (
        // What opens today and this week for the user: theirs and anyone's to claim (issue 26).
        <section className="panel" aria-labelledby="my-occurrences-heading">
          <h2 id="my-occurrences-heading">Scheduled for you</h2>
          <MyOccurrences orgId={membership.org_id} orgSlug={membership.org_slug} userId={userId} />
        </section>
      ) : null}
      {membership.role !== 'inspector' ? (
        // The managers' figures (and a viewer's, who reads everything): this week's on-time rate and missed.
        <section className="panel" aria-labelledby="compliance-heading">
          <h2 id="compliance-heading">Schedules this week</h2>
          <ComplianceTiles orgId={membership.org_id} orgSlug={membership.org_slug} groupId={groupId} />
        </section>
      ) : null}
      <section className="panel" aria-labelledby="inspections-heading">
        <h2 id="inspections-heading">Inspections</h2>
        <DashboardCounts orgId={membership.org_id} orgPath={base} groupId={groupId} />
      </section>
      <section className="panel" aria-labelledby="actions-heading">
        <h2 id="actions-heading">Corrective actions</h2>
        <ActionCounts orgId={membership.org_id} orgPath={base} groupId={groupId} />
      </section>
      <section className="panel" aria-labelledby="activity-heading">
        <h2 id="activity-heading">Latest activity</h2>
        <ActivityFeed orgId={membership.org_id} orgSlug={membership.org_slug} />
      </section>
      <section className="panel" aria-labelledby="start-heading">
        <h2 id="start-heading">Get started</h2>
        <ul className="link-list">
          <li>
            <Link to={`${base}/inspections`}>
              <ClipboardCheck aria-hidden="true" size={18} />
              Inspections
              <ArrowRight aria-hidden="true" size={16} />
            </Link>
            <span className="muted">Scheduled, running and submitted inspections of your sites.</span>
          </li>
          <li>
            <Link to={`${base}/schedules`}>
              <Repeat aria-hidden="true" size={18} />
              Schedules
              <ArrowRight aria-hidden="true" size={16} />
            </Link>
            <span className="muted">Recurring inspections of your sites, and their calendar.</span>
          </li>
          <li>
            <Link to={`${base}/sites`}>
              <MapPin aria-hidden="true" size={18} />
              Sites
              <ArrowRight aria-hidden="true" size={16} />
            </Link>
            <span className="muted">The places your organization inspects.</span>
          </li>
          <li>
            <Link to={`${base}/members`}>
              Members
              <ArrowRight aria-hidden="true" size={16} />
            </Link>
            <span className="muted">{can.manageMembers(membership.role) ? 'Invite people and set their roles.' : 'Who is in the team.'}</span>
          </li>
          {can.manageSettings(membership.role) ? (
            <li>
              <Link to={`${base}/settings`}>
                Settings
                <ArrowRight aria-hidden="true" size={16} />
              </Link>
              <span className="muted">Name, default geofence and two-factor authentication.</span>
            </li>
          ) : null}
        </ul>
      </section>
    </ContentLayout>
  );
}
