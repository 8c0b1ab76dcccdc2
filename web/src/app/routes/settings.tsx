import { can } from '@schemas/roles';
import type { Organization } from '@schemas/organizations';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { organizationQueryOptions, useOrganization } from '@/features/organizations/api/get-organization';
import { ApiKeysPanel, type KeySiteAccess } from '@/features/api-keys/components/api-keys-panel';
import { NO_GROUP_CHOSEN } from '@/features/site-groups/components/member-access-editor';
import { SiteAccessField } from '@/features/site-groups/components/site-access-field';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { accessSummary, normalizeSelection } from '@/features/site-groups/utils/group-tree';
import { AuditLog } from '@/features/audit/components/audit-log';
import { WebhooksPanel } from '@/features/webhooks/components/webhooks-panel';
import { DeleteOrganizationPanel } from '@/features/settings/components/delete-organization-panel';
import { OrganizationSettingsForm } from '@/features/settings/components/organization-settings-form';
import { OrganizationSettingsSummary } from '@/features/settings/components/organization-settings-summary';
import { useOrgRoute } from '../org-context';
import { refreshOrganizations } from '../refresh-memberships';
import { useMemberChoices } from '../use-member-choices';
import type { OrgsRouteState } from './orgs';
import { QueryError } from '@/components/ui/query-error';
import { isFreshThisVisit } from '@/lib/query-persistence';

export function SettingsRoute() {
  const { membership } = useOrgRoute();
  const organization = useOrganization(membership.org_id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const people = useMemberChoices(membership.org_id);
  const { tree } = useGroupTree(membership.org_id);
  const keySites: KeySiteAccess = {
    field: (value, onChange, error) => (
      <SiteAccessField
        legend="Sites the key sees"
        name="site_group_ids"
        tree={tree}
        value={value}
        onChange={onChange}
        error={error}
        noGroups={
          <>
            Every key sees every site until the organization has site groups. <Link to={`/o/${membership.org_slug}/sites`}>Make them on the Sites page.</Link>
          </>
        }
      />
    ),
    idsOf: (value) => {
      if (!value.limited) return { ids: [] };
      const ids = tree ? normalizeSelection(tree, value.groupIds) : [];
      return ids.length > 0 ? { ids } : { problem: NO_GROUP_CHOSEN };
    },
    describe: (key) => (key.org_wide ? 'All sites' : tree ? accessSummary(tree, key.site_group_ids) : `${key.site_group_ids.length} groups`),
  };

  if (organization.isPending) return <LoadingScreen />;
  if (organization.isError && !organization.data) {
    return (
      <ContentLayout title="Settings" description={membership.org_name}>
        <QueryError error={organization.error} onRetry={() => organization.refetch()} />
      </ContentLayout>
    );
  }

  function onSaved(updated: Organization) {
    queryClient.setQueryData(organizationQueryOptions(updated.id).queryKey, updated);
    // The header and the switcher show the name from the memberships.
    refreshOrganizations(queryClient);
  }

  function onDeleted() {
    const name = membership.org_name;
    navigate('/orgs', { replace: true, state: { notice: `${name} was deleted.` } satisfies OrgsRouteState });
    queryClient.removeQueries({ queryKey: organizationQueryOptions(membership.org_id).queryKey });
    refreshOrganizations(queryClient);
  }

  return (
    <ContentLayout title="Settings" description={membership.org_name}>
      <section className="panel" aria-labelledby="general-heading">
        <h2 id="general-heading">Organization</h2>
        {can.manageSettings(membership.role) ? (
          isFreshThisVisit(organization) ? (
            <OrganizationSettingsForm organization={organization.data} onSaved={onSaved} />
          ) : (
            <p className="muted">Loading the current settings…</p>
          )
        ) : (
          <>
            <p className="muted">Only owners and admins can change these settings.</p>
            <OrganizationSettingsSummary organization={organization.data} />
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="api-heading">
        <h2 id="api-heading">API</h2>
        <p>
          Everything this app does goes through the Fieldcheck HTTP API. The <Link to="/api-docs">API reference</Link>{' '}
          lists every route with its parameters, bodies and errors.
        </p>
      </section>
      {can.manageSettings(membership.role) ? (
        <section className="panel" aria-labelledby="api-keys-heading">
          <h2 id="api-keys-heading">API keys</h2>
          <ApiKeysPanel orgId={membership.org_id} siteAccess={keySites} />
        </section>
      ) : null}
      {can.manageSettings(membership.role) ? (
        <section className="panel" aria-labelledby="webhooks-heading">
          <h2 id="webhooks-heading">Webhooks</h2>
          <WebhooksPanel orgId={membership.org_id} />
        </section>
      ) : null}
      {can.readAuditLog(membership.role) ? (
        <section className="panel" aria-labelledby="audit-heading">
          <h2 id="audit-heading">Audit log</h2>
          <p>Every change in {membership.org_name}: who did what, and when.</p>
          <AuditLog orgId={membership.org_id} orgSlug={membership.org_slug} people={people} />
        </section>
      ) : null}
      {can.deleteOrganization(membership.role) ? (
        <section className="panel panel-danger" aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete organization</h2>
          <DeleteOrganizationPanel organization={organization.data} onDeleted={onDeleted} />
        </section>
      ) : null}
    </ContentLayout>
  );
}
