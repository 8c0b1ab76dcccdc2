import type { Organization } from '@schemas/organizations';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { FormAlert } from '@/components/ui/form-alert';
import { CreateOrganizationForm } from '@/features/organizations/components/create-organization-form';
import { OrganizationList } from '@/features/organizations/components/organization-list';
import { useMe } from '@/features/profile/api/get-me';
import { refreshMemberships } from '../refresh-memberships';

export interface OrgsRouteState {
  notice?: string;
}

export function OrgsRoute() {
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const notice = (location.state as OrgsRouteState | null)?.notice;

  useEffect(() => {
    // The switcher's "Create organization" link points at the form further down.
    if (location.hash === '#create-organization') document.getElementById('create-organization')?.scrollIntoView();
  }, [location.hash]);

  async function openCreated(organization: Organization) {
    await refreshMemberships(queryClient).catch(() => undefined);
    navigate(`/o/${organization.slug}`);
  }

  const firstTime = me.data !== undefined && me.data.memberships.length === 0;
  const name = me.data?.display_name || me.data?.email;

  return (
    <ContentLayout title="Organizations">
      <FormAlert tone="success" message={notice} />
      {firstTime ? (
        <section className="panel" aria-labelledby="welcome-heading">
          <h2 id="welcome-heading">{name ? `Welcome, ${name}` : 'Welcome'}</h2>
          <p>
            Create an organization for your team below: then invite people and add the sites you inspect. Invited by
            someone else? Open the link in their email to join their organization.
          </p>
        </section>
      ) : (
        <section className="panel" aria-labelledby="your-organizations-heading">
          <h2 id="your-organizations-heading">Your organizations</h2>
          <OrganizationList />
        </section>
      )}
      <section className="panel" id="create-organization" aria-labelledby="create-organization-heading">
        <h2 id="create-organization-heading">Create an organization</h2>
        <CreateOrganizationForm onCreated={(organization) => void openCreated(organization)} />
      </section>
    </ContentLayout>
  );
}
