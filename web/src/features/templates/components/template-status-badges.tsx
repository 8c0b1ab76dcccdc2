import type { TemplateSummary } from '@schemas/templates';
import { statusLabels } from '../utils/template-format';

/** Status, and whether the draft has changes that no published version has. */
export function TemplateStatusBadges({ template }: { template: Pick<TemplateSummary, 'status' | 'has_unpublished_changes' | 'latest_version'> }) {
  return (
    <span className="template-badges">
      <span className={`badge template-status template-status-${template.status}`}>{statusLabels[template.status]}</span>
      {template.status !== 'archived' && template.latest_version !== null && template.has_unpublished_changes ? (
        <span className="badge template-unpublished">Unpublished changes</span>
      ) : null}
    </span>
  );
}
