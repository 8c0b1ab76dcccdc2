import { canManageTemplates } from '@schemas/templates';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { Button } from '@/components/ui/button';
import { NewTemplateForm } from '@/features/templates/components/new-template-form';
import { TemplateList } from '@/features/templates/components/template-list';
import { useOrgRoute } from '../org-context';
import type { TemplateRouteState } from './template-detail';

export function TemplatesRoute() {
  const { membership } = useOrgRoute();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const canManage = canManageTemplates(membership.role);

  return (
    <ContentLayout
      title="Templates"
      description={membership.org_name}
      actions={
        canManage && !creating ? (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" size={18} />
            New template
          </Button>
        ) : null
      }
    >
      {creating ? (
        <section className="panel" aria-labelledby="new-template-heading">
          <h2 id="new-template-heading">New template</h2>
          <NewTemplateForm
            orgId={membership.org_id}
            onCancel={() => setCreating(false)}
            onCreated={(template) =>
              navigate(`/o/${membership.org_slug}/templates/${template.id}`, {
                state: { notice: `${template.name} was created. Add its sections and items, then publish it.` } satisfies TemplateRouteState,
              })
            }
          />
        </section>
      ) : null}
      <TemplateList orgId={membership.org_id} orgSlug={membership.org_slug} />
    </ContentLayout>
  );
}
