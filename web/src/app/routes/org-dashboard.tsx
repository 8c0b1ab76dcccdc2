import { can } from '@schemas/common';
import { ArrowRight, MapPin } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ContentLayout } from '../../components/layouts/content-layout';
import { roleWithArticle } from '../../lib/roles';
import { useOrgRoute } from '../org-context';

/** `/o/:org`: a starting point until inspections, actions and the activity feed arrive. */
export function OrgDashboardRoute() {
  const { membership } = useOrgRoute();
  const base = `/o/${membership.org_slug}`;
  return (
    <ContentLayout title={membership.org_name} description={`You're ${roleWithArticle(membership.role)} here.`}>
      <section className="panel" aria-labelledby="start-heading">
        <h2 id="start-heading">Get started</h2>
        <ul className="link-list">
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
      <section className="panel" aria-labelledby="inspections-heading">
        <h2 id="inspections-heading">Inspections</h2>
        <p className="muted">Inspections by status, overdue work and open actions will appear here.</p>
      </section>
    </ContentLayout>
  );
}
