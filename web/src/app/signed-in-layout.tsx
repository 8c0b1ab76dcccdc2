import { can } from '@schemas/common';
import { Link, NavLink, Outlet, useMatch } from 'react-router-dom';
import { useMe } from '../features/profile/api/get-me';
import { OrganizationSwitcher } from '../features/organizations/components/organization-switcher';

/** The frame of every signed-in page: header with the organization switcher and navigation. */
export function SignedInLayout() {
  const me = useMe();
  const orgMatch = useMatch('/o/:org/*');
  const currentSlug = orgMatch?.params.org;
  const memberships = me.data?.memberships ?? [];
  const membership = memberships.find((candidate) => candidate.org_slug === currentSlug);

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <div className="app-header-row">
          <Link to="/" className="brand-link">
            Fieldcheck
          </Link>
          {me.data ? <OrganizationSwitcher memberships={memberships} currentSlug={currentSlug} /> : null}
          <nav aria-label="Account" className="account-nav">
            <NavLink to="/orgs" end>
              Organizations
            </NavLink>
            <NavLink to="/account">Account</NavLink>
          </nav>
        </div>
        {membership ? (
          <nav aria-label={membership.org_name} className="org-nav">
            <NavLink to={`/o/${membership.org_slug}`} end>
              Dashboard
            </NavLink>
            <NavLink to={`/o/${membership.org_slug}/inspections`}>Inspections</NavLink>
            <NavLink to={`/o/${membership.org_slug}/actions`}>Actions</NavLink>
            <NavLink to={`/o/${membership.org_slug}/sites`}>Sites</NavLink>
            <NavLink to={`/o/${membership.org_slug}/templates`}>Templates</NavLink>
            <NavLink to={`/o/${membership.org_slug}/members`}>Members</NavLink>
            {can.readAuditLog(membership.role) ? <NavLink to={`/o/${membership.org_slug}/settings`}>Settings</NavLink> : null}
          </nav>
        ) : null}
      </header>
      <Outlet />
    </div>
  );
}
