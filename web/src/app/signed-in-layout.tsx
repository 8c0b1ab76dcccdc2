import { can } from '@schemas/roles';
import { ClipboardCheck, LayoutDashboard, MapPin, Menu, Wrench, X } from 'lucide-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { LoadingScreen } from '../components/ui/loading-screen';
import { Link, NavLink, Outlet, useLocation, useMatch } from 'react-router-dom';
import { useMe } from '../features/profile/api/get-me';
import { useAuth } from '../lib/auth';
import { useSendWaitingChanges, useUpcomingWork } from './offline-work';
import { useQueryClient } from '@tanstack/react-query';
import { OrganizationSwitcher } from '../features/organizations/components/organization-switcher';

/**
 * The frame of every signed-in page. On a wide screen: a header with the organization switcher,
 * the account links and the organization's navigation. On a phone (docs/offline.md, issue 12): a
 * one-row header, and the organization's navigation as a tab bar at the bottom, in thumb's reach —
 * the four places used on site, and "More" for the rest.
 */
export function SignedInLayout() {
  const me = useMe();
  const { session, expired } = useAuth();
  // Changes made on this device before a sign-in (or an expiry) go as soon as they can, on any screen.
  useSendWaitingChanges(session?.user.id, session?.access_token, expired);
  useUpcomingWork(useQueryClient(), me.data);
  const orgMatch = useMatch('/o/:org/*');
  const currentSlug = orgMatch?.params.org;
  const memberships = me.data?.memberships ?? [];
  const membership = memberships.find((candidate) => candidate.org_slug === currentSlug);
  const [moreOpen, setMoreOpen] = useState(false);
  const location = useLocation();
  const moreButton = useRef<HTMLButtonElement>(null);

  // Following a link closes the menu.
  useEffect(() => setMoreOpen(false), [location.pathname]);

  const base = membership ? `/o/${membership.org_slug}` : '';
  return (
    <div className={`app-shell${membership ? ' app-shell-with-tabs' : ''}`}>
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
            <NavLink to={base} end>
              <LayoutDashboard aria-hidden="true" size={20} />
              <span>Dashboard</span>
            </NavLink>
            <NavLink to={`${base}/inspections`}>
              <ClipboardCheck aria-hidden="true" size={20} />
              <span>Inspections</span>
            </NavLink>
            <NavLink to={`${base}/actions`}>
              <Wrench aria-hidden="true" size={20} />
              <span>Actions</span>
            </NavLink>
            <NavLink to={`${base}/sites`}>
              <MapPin aria-hidden="true" size={20} />
              <span>Sites</span>
            </NavLink>
            <NavLink to={`${base}/templates`} className="org-nav-secondary">
              Templates
            </NavLink>
            <NavLink to={`${base}/schedules`} className="org-nav-secondary">
              Schedules
            </NavLink>
            <NavLink to={`${base}/calendar`} className="org-nav-secondary">
              Calendar
            </NavLink>
            <NavLink to={`${base}/analytics`} className="org-nav-secondary">
              Analytics
            </NavLink>
            <NavLink to={`${base}/members`} className="org-nav-secondary">
              Members
            </NavLink>
            {can.readAuditLog(membership.role) ? (
              <NavLink to={`${base}/settings`} className="org-nav-secondary">
                Settings
              </NavLink>
            ) : null}
            <button
              ref={moreButton}
              type="button"
              className="org-nav-more"
              aria-expanded={moreOpen}
              aria-controls="more-menu"
              onClick={() => setMoreOpen((open) => !open)}
            >
              {moreOpen ? <X aria-hidden="true" size={20} /> : <Menu aria-hidden="true" size={20} />}
              <span>More</span>
            </button>
          </nav>
        ) : null}
        {membership && moreOpen ? (
          <nav
            id="more-menu"
            aria-label="More"
            className="more-menu"
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                setMoreOpen(false);
                moreButton.current?.focus();
              }
            }}
          >
            <NavLink to={`${base}/templates`}>Templates</NavLink>
            <NavLink to={`${base}/schedules`}>Schedules</NavLink>
            <NavLink to={`${base}/calendar`}>Calendar</NavLink>
            <NavLink to={`${base}/analytics`}>Analytics</NavLink>
            <NavLink to={`${base}/members`}>Members</NavLink>
            {can.readAuditLog(membership.role) ? <NavLink to={`${base}/settings`}>Settings</NavLink> : null}
            <NavLink to="/orgs" end>
              Organizations
            </NavLink>
            <NavLink to="/account">Account</NavLink>
          </nav>
        ) : null}
      </header>
      {/* A screen's code arrives on first visit: the frame stays while it does. */}
      <Suspense fallback={<LoadingScreen />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
