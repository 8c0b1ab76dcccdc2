import type { Template } from '@schemas/templates';
import { useState } from 'react';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeErrorSentence } from '@/lib/errors';
import { useArchiveTemplate } from '../api/archive-template';

/** Archive: no new inspections from it; published versions and their inspections are kept. */
export function TemplateArchiveControl({ orgId, template }: { orgId: string; template: Template }) {
  const archive = useArchiveTemplate();
  const [error, setError] = useState<string | undefined>();

  return (
    <div className="stack">
      <FormAlert message={error} />
      <p>
        Archiving stops new inspections from using this template and makes it read-only. Inspections already scheduled with it, and its
        published versions, are kept.
      </p>
      <div>
        <ConfirmButton
          question={`Archive ${template.name}?`}
          confirmText="Yes, archive"
          pending={archive.isPending}
          onConfirm={() => {
            setError(undefined);
            archive.mutate({ orgId, templateId: template.id }, { onError: (cause) => setError(describeErrorSentence(cause)) });
          }}
        >
          Archive template
        </ConfirmButton>
      </div>
    </div>
  );
}
