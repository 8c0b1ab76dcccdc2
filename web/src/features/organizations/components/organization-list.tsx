import { Link } from 'react-router-dom';
import { LoadMoreButton } from '@/components/ui/paged-list';
import { roleLabel } from '@/lib/roles';
import { useOrganizations } from '../api/get-organizations';
import { QueryError } from '@/components/ui/query-error';

export function OrganizationList() {
  const organizations = useOrganizations();

  if (organizations.isPending) return <p className="muted">Loading your organizations…</p>;
  if (organizations.isError) return <QueryError error={organizations.error} onRetry={() => organizations.refetch()} />;

  const rows = organizations.data.pages.flatMap((page) => page.data);
  if (rows.length === 0) {
    return <p className="muted">You don't belong to an organization yet. Create one below, or accept an invitation from your inbox.</p>;
  }

  return (
    <div className="stack">
      <ul className="card-list" aria-label="Your organizations">
        {rows.map((organization) => (
          <li key={organization.id} className="card-list-item">
            <Link to={`/o/${organization.slug}`} className="card-list-title">
              {organization.name}
            </Link>
            <span className="badge">{roleLabel(organization.role)}</span>
          </li>
        ))}
      </ul>
      <LoadMoreButton query={organizations} />
    </div>
  );
}
