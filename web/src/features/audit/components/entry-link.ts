import type { AuditEntry } from '@schemas/audit';

/** Where an entry's subject lives in the web app, when it has a page of its own. */
export function entryPath(entry: AuditEntry, orgSlug: string): string | null {
  const base = `/o/${orgSlug}`;
  const row = entry.after ?? entry.before ?? {};
  if (entry.action === 'delete') return null;
  switch (entry.entity) {
    case 'inspections':
      return `${base}/inspections/${entry.entity_id}`;
    case 'answers':
    case 'attachments':
      return typeof row.inspection_id === 'string' ? `${base}/inspections/${row.inspection_id}` : null;
    case 'actions':
      return `${base}/actions/${entry.entity_id}`;
    case 'action_attachments':
      return typeof row.action_id === 'string' ? `${base}/actions/${row.action_id}` : null;
    case 'sites':
      return `${base}/sites/${entry.entity_id}`;
    case 'templates':
      return `${base}/templates/${entry.entity_id}`;
    case 'template_versions':
      return typeof row.template_id === 'string' ? `${base}/templates/${row.template_id}` : null;
    case 'memberships':
    case 'invitations':
      return `${base}/members`;
    default:
      return null;
  }
}
