import type { Organization } from '@schemas/organizations';

/** Settings as members who can't change them see them. */
export function OrganizationSettingsSummary({ organization }: { organization: Organization }) {
  return (
    <dl className="details">
      <div>
        <dt>Organization name</dt>
        <dd>{organization.name}</dd>
      </div>
      <div>
        <dt>Default geofence</dt>
        <dd>{organization.default_geofence_m} m</dd>
      </div>
      <div>
        <dt>Two-factor authentication</dt>
        <dd>{organization.require_mfa ? 'Required for every member' : 'Not required'}</dd>
      </div>
    </dl>
  );
}
