import { DESCRIPTION_MAX_LENGTH, templateCreateSchema, type Template, type TemplateCreate } from '@schemas/templates';
import { NAME_MAX_LENGTH } from '@schemas/common';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextAreaField } from '@/components/ui/textarea-field';
import { TextField } from '@/components/ui/text-field';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useCreateTemplate } from '../api/create-template';

interface NewTemplateFormProps {
  orgId: string;
  onCreated: (template: Template) => void;
  onCancel: () => void;
}

/** Name and description of a new draft; its sections and items are built in the editor after. */
export function NewTemplateForm({ orgId, onCreated, onCancel }: NewTemplateFormProps) {
  const createTemplate = useCreateTemplate();
  const idempotency = useIdempotencyKey();
  const nameRef = useRef<HTMLInputElement>(null);
  const { failure, handleSubmit } = useValidatedSubmit(templateCreateSchema, (body: TemplateCreate, { fail }) =>
    createTemplate.mutate(
      { orgId, body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (created) => {
          idempotency.reset();
          onCreated(created);
        },
        onError: fail,
      },
    ),
  );

  useEffect(() => nameRef.current?.focus(), []);

  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-label="New template">
      <FormAlert message={failure?.message} />
      <TextField
        ref={nameRef}
        label="Template name"
        name="name"
        required
        maxLength={NAME_MAX_LENGTH}
        placeholder="e.g. Kitchen hygiene audit"
        error={failure?.fieldErrors.name}
      />
      <TextAreaField
        label="Description"
        name="description"
        maxLength={DESCRIPTION_MAX_LENGTH}
        hint="Optional: what this checklist is for."
        error={failure?.fieldErrors.description}
      />
      <div className="button-row">
        <Button type="submit" pending={createTemplate.isPending}>
          Create template
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
