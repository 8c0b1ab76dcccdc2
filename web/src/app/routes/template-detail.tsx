import { isId } from '@schemas/ids';
import { errorCatalogue, formatWording } from '@schemas/errors';
import { canManageTemplates, type Template } from '@schemas/templates';
import { Link, useLocation, useParams } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useTemplate } from '@/features/templates/api/get-template';
import { TemplateArchiveControl } from '@/features/templates/components/template-archive-control';
import { TemplateEditor } from '@/features/templates/components/template-editor';
import { TemplatePreview } from '@/features/templates/components/template-preview';
import { TemplateStatusBadges } from '@/features/templates/components/template-status-badges';
import { TemplateVersions } from '@/features/templates/components/template-versions';
import { itemCountText, versionText } from '@/features/templates/utils/template-format';
import { describeError } from '@/lib/errors';
import { useOrgRoute } from '../org-context';
import { QueryError } from '@/components/ui/query-error';

export interface TemplateRouteState {
  notice?: string;
}

const templateNotFound = formatWording(errorCatalogue.not_found.title, { thing: 'template' });

export function TemplateDetailRoute() {
  const { templateId = '' } = useParams();
  const validId = isId(templateId);
  return validId ? <TemplateDetail templateId={templateId} /> : <TemplateNotFound />;
}

function BackToTemplates() {
  const { membership } = useOrgRoute();
  return (
    <p>
      <Link to={`/o/${membership.org_slug}/templates`}>Back to templates</Link>
    </p>
  );
}

function TemplateNotFound() {
  const { membership } = useOrgRoute();
  return (
    <ContentLayout title={templateNotFound} description={membership.org_name}>
      <BackToTemplates />
    </ContentLayout>
  );
}

function TemplateSummaryLine({ template }: { template: Template }) {
  return (
    <span className="template-summary-line">
      <TemplateStatusBadges template={template} />
      <span>
        {versionText(template)} · {itemCountText(template.item_count)}
      </span>
    </span>
  );
}

function TemplateDetail({ templateId }: { templateId: string }) {
  const { membership } = useOrgRoute();
  const location = useLocation();
  const template = useTemplate(membership.org_id, templateId);
  const notice = (location.state as TemplateRouteState | null)?.notice;

  if (template.isPending) return <LoadingScreen />;
  if (template.isError && !template.data) {
    const failure = describeError(template.error);
    if (failure.code === 'not_found') return <TemplateNotFound />;
    return (
      <ContentLayout title="Template" description={membership.org_name}>
        <QueryError error={template.error} onRetry={() => template.refetch()} />
        <BackToTemplates />
      </ContentLayout>
    );
  }

  const data = template.data;
  const archived = data.status === 'archived';
  const editable = canManageTemplates(membership.role) && !archived;

  return (
    <ContentLayout title={data.name} description={<TemplateSummaryLine template={data} />}>
      {editable ? null : <FormAlert tone="success" message={notice} />}
      {data.description && !editable ? <p>{data.description}</p> : null}
      {editable ? (
        <TemplateEditor key={data.id} orgId={membership.org_id} template={data} initialNotice={notice} />
      ) : (
        <section className="panel" aria-labelledby="template-draft-heading">
          <h2 id="template-draft-heading">{archived ? 'Checklist' : 'Draft'}</h2>
          <p className="muted">
            {archived
              ? `This template was archived${data.archived_at ? ` on ${new Date(data.archived_at).toLocaleDateString()}` : ''}: it can't be edited or used for new inspections.`
              : 'Only owners, admins and managers can change templates.'}
          </p>
          <TemplatePreview definition={data.definition} />
        </section>
      )}
      {data.latest_version !== null ? (
        <section className="panel" aria-labelledby="template-versions-heading">
          <h2 id="template-versions-heading">Published versions</h2>
          <TemplateVersions orgId={membership.org_id} templateId={data.id} latestVersion={data.latest_version} />
        </section>
      ) : null}
      {editable ? (
        <section className="panel" aria-labelledby="template-archive-heading">
          <h2 id="template-archive-heading">Archive</h2>
          <TemplateArchiveControl orgId={membership.org_id} template={data} />
        </section>
      ) : null}
      <BackToTemplates />
    </ContentLayout>
  );
}
